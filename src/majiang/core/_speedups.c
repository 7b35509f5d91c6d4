/* The hot path of majiang.core.analysis in C: shanten and waits of one hand per call.
 *
 * An optional accelerator of the pure-Python analysis (which stays the reference and the
 * fallback): the same shipped tables, handed over once by analysis.py, and the same arithmetic.
 * Whatever this module cannot decide (a bad hand, an unknown variant, a bad void) it answers
 * None, and the Python path then gives the result or raises its usual error; so validation
 * messages live in one place. A variant's plan (groups, win choices per void) is resolved once
 * by a Python callback and kept here, keyed by the variant object.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define KINDS 30
#define ROW 10
#define INF 99
#define NO_WIN (INF - 1)
#define MAX_CLASSES 256
#define MAX_GROUPS 4
#define MAX_CHOICES 8
#define MAX_PLANS 32

static const uint16_t *suit_table; /* class | pairs << 8, by base-5 suit vector */
static Py_ssize_t suit_len;
static const uint16_t *honour_table;
static Py_ssize_t honour_len;
static uint8_t rows[MAX_CLASSES][ROW];
static int n_classes;
static uint8_t *pair_rows; /* min-plus of two classes: [a * n_classes + b][ROW] */
static PyObject *table_owner; /* keeps the buffers above alive */
static PyObject *resolver;     /* variant -> plan tuple (analysis._speedup_plan) */
static PyObject *all_tiles;    /* ALL_TILES */
static PyObject *pong_kind;    /* MeldKind.PONG */
static PyObject *str_counts, *str_melds, *str_tile, *str_kind;

typedef struct {
    PyObject *key; /* the variant object as given (str or Variant), owned */
    uint32_t kinds; /* bit k: kind k is a tile of the variant */
    int n_groups;
    int start[MAX_GROUPS], size[MAX_GROUPS];
    int two_suit;
    int suit_group[3]; /* group of suit m, p, s, or -1 */
    int n_choices[4];  /* per void: none, m, p, s; -1 when that void is not allowed */
    uint8_t choice[4][MAX_CHOICES]; /* bit g: group g is used */
} Plan;

static Plan plans[MAX_PLANS];
static int n_plans, next_evict;

/* ------------------------------------------------------------------------------------------ */

static inline int suit_key(const int *c, int s) {
    int k = 0;
    for (int i = 0; i < 9; i++) k = k * 5 + c[s + i];
    return k;
}

static inline uint16_t packed_of(const Plan *p, int g, const int *c) {
    int s = p->start[g];
    if (p->size[g] == 9) return suit_table[suit_key(c, s)];
    return honour_table[(c[s] * 5 + c[s + 1]) * 5 + c[s + 2]];
}

static void min_plus(const uint8_t *a, const uint8_t *b, uint8_t *out) {
    for (int m = 0; m < 5; m++)
        for (int p = 0; p < 2; p++) {
            int best = INF;
            for (int m1 = 0; m1 <= m; m1++)
                for (int p1 = 0; p1 <= p; p1++) {
                    int v = a[m1 * 2 + p1] + b[(m - m1) * 2 + p - p1];
                    if (v < best) best = v;
                }
            out[m * 2 + p] = (uint8_t)best;
        }
}

/* sets sets and one pair from two rows (the pair in either) */
static inline int final_two(const uint8_t *a, const uint8_t *b, int sets) {
    int best = INF;
    for (int m = 0; m <= sets; m++) {
        int v = a[m * 2] + b[(sets - m) * 2 + 1];
        if (v < best) best = v;
        v = a[m * 2 + 1] + b[(sets - m) * 2];
        if (v < best) best = v;
    }
    return best;
}

/* One group's row when some kinds have fewer than four copies left: the same left-to-right
 * programme as analysis.capped_row (state: sequences pending from the last two kinds, sets,
 * pairs; value: most held tiles used). Results are kept in a small direct-mapped cache. */
#define CAP_CACHE 4096
static struct { uint64_t key; uint8_t row[ROW]; } cap_cache[CAP_CACHE];

static void capped_row(const int *counts, const int *caps, int n, int sequences, uint8_t *out) {
    uint64_t key = 1;
    for (int i = 0; i < n; i++) key = key * 25 + (uint64_t)(counts[i] * 5 + caps[i]);
    key = key * 2 + (uint64_t)sequences;
    unsigned slot = (unsigned)((key * 0x9E3779B97F4A7C15ull) >> 52) & (CAP_CACHE - 1);
    if (cap_cache[slot].key == key) {
        memcpy(out, cap_cache[slot].row, ROW);
        return;
    }
    int cur[5][5][5][2], nxt[5][5][5][2];
    memset(cur, -1, sizeof cur);
    cur[0][0][0][0] = 0;
    for (int i = 0; i < n; i++) {
        int h = counts[i], cap = caps[i];
        int seq = sequences && i <= n - 3;
        memset(nxt, -1, sizeof nxt);
        for (int a = 0; a < 5; a++)
            for (int b = 0; b < 5; b++) {
                int base = a + b, room = cap - base;
                if (room < 0) continue;
                for (int m = 0; m < 5; m++)
                    for (int p = 0; p < 2; p++) {
                        int ov = cur[a][b][m][p];
                        if (ov < 0) continue;
                        for (int k = 0; k < (seq ? 5 : 1); k++)
                            for (int trip = 0; trip < 2; trip++)
                                for (int pr = 0; pr < 2; pr++) {
                                    int add = k + 3 * trip + 2 * pr;
                                    if (add > room) continue;
                                    int m2 = m + k + trip, p2 = p + pr;
                                    if (m2 > 4 || p2 > 1) continue;
                                    int t = base + add;
                                    int val = ov + (h < t ? h : t);
                                    if (nxt[k][a][m2][p2] < val) nxt[k][a][m2][p2] = val;
                                }
                    }
            }
        memcpy(cur, nxt, sizeof cur);
    }
    for (int j = 0; j < ROW; j++) {
        int ov = cur[0][0][j / 2][j % 2];
        out[j] = (uint8_t)(ov < 0 ? INF : 3 * (j / 2) + 2 * (j % 2) - ov);
    }
    cap_cache[slot].key = key;
    memcpy(cap_cache[slot].row, out, ROW);
}

/* ------------------------------------------------------------------------------------------ */
/* Plans: what analysis._plan says of a variant, resolved once. */

static int fill_plan(Plan *p, PyObject *spec) {
    /* spec: (kinds mask, ((start, size), ...), two_suit, (group of m, p, s), (choices per void)) */
    PyObject *groups, *suit_groups, *per_void;
    unsigned long kinds;
    int two_suit;
    if (!PyArg_ParseTuple(spec, "kO!pO!O!", &kinds, &PyTuple_Type, &groups, &two_suit, &PyTuple_Type,
                          &suit_groups, &PyTuple_Type, &per_void))
        return -1;
    Py_ssize_t ng = PyTuple_GET_SIZE(groups);
    /* at most three groups: with four, the Python path's table lookups are what the results are */
    if (ng < 1 || ng > 3 || PyTuple_GET_SIZE(suit_groups) != 3 || PyTuple_GET_SIZE(per_void) != 4) {
        PyErr_SetString(PyExc_ValueError, "plan out of range");
        return -1;
    }
    p->kinds = (uint32_t)kinds;
    p->two_suit = two_suit;
    p->n_groups = (int)ng;
    for (Py_ssize_t g = 0; g < ng; g++) {
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(groups, g), "ii", &p->start[g], &p->size[g])) return -1;
        if (!((p->size[g] == 9 && p->start[g] >= 0 && p->start[g] <= 18) || (p->size[g] == 3 && p->start[g] == 27))) {
            PyErr_SetString(PyExc_ValueError, "plan group out of range");
            return -1;
        }
    }
    for (int s = 0; s < 3; s++) {
        p->suit_group[s] = (int)PyLong_AsLong(PyTuple_GET_ITEM(suit_groups, s));
        if (PyErr_Occurred()) return -1;
    }
    for (int v = 0; v < 4; v++) {
        PyObject *choices = PyTuple_GET_ITEM(per_void, v);
        if (choices == Py_None) {
            p->n_choices[v] = -1;
            continue;
        }
        if (!PyTuple_Check(choices) || PyTuple_GET_SIZE(choices) > MAX_CHOICES) {
            PyErr_SetString(PyExc_ValueError, "plan choices out of range");
            return -1;
        }
        p->n_choices[v] = (int)PyTuple_GET_SIZE(choices);
        for (int i = 0; i < p->n_choices[v]; i++) {
            long mask = PyLong_AsLong(PyTuple_GET_ITEM(choices, i));
            if (mask <= 0 || mask >= (1 << ng)) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "plan choice out of range");
                return -1;
            }
            p->choice[v][i] = (uint8_t)mask;
        }
    }
    return 0;
}

/* The plan of a variant, or NULL (no exception set) when the Python path must answer. */
static const Plan *plan_for(PyObject *variant) {
    for (int i = 0; i < n_plans; i++)
        if (plans[i].key == variant) return &plans[i];
    if (PyUnicode_CheckExact(variant)) { /* the same name built anew (CLI arguments, JSON) */
        for (int i = 0; i < n_plans; i++)
            if (PyUnicode_CheckExact(plans[i].key) && PyUnicode_Compare(plans[i].key, variant) == 0)
                return &plans[i];
    }
    if (resolver == NULL) return NULL;
    PyObject *spec = PyObject_CallOneArg(resolver, variant);
    if (spec == NULL) {
        PyErr_Clear();
        return NULL;
    }
    Plan fresh;
    int bad = !PyTuple_Check(spec) || fill_plan(&fresh, spec) < 0;
    Py_DECREF(spec);
    if (bad) {
        PyErr_Clear();
        return NULL;
    }
    int slot;
    if (n_plans < MAX_PLANS) {
        slot = n_plans++;
    } else { /* many throwaway Variant objects: reuse slots in turn */
        slot = next_evict;
        next_evict = (next_evict + 1) % MAX_PLANS;
        Py_DECREF(plans[slot].key);
    }
    Py_INCREF(variant);
    fresh.key = variant;
    plans[slot] = fresh;
    return &plans[slot];
}

/* void: None -> 0, "m" / "p" / "s" -> 1..3, anything else -> -1 */
static int void_index(PyObject *v) {
    if (v == Py_None) return 0;
    if (!PyUnicode_Check(v) || PyUnicode_GET_LENGTH(v) != 1) return -1;
    switch (PyUnicode_READ_CHAR(v, 0)) {
    case 'm': return 1;
    case 'p': return 2;
    case 's': return 3;
    }
    return -1;
}

/* The hand's concealed counts, meld tiles and sizes; 0 on success, -1 for "let Python answer". */
typedef struct {
    int counts[KINDS];
    int totals[KINDS];
    int n;            /* concealed tiles */
    int n_melds;
    int meld_tile[4];
} HandView;

static int read_hand(PyObject *hand, HandView *h) {
    PyObject *counts = PyObject_GetAttr(hand, str_counts);
    if (counts == NULL) goto fail;
    if (!PyTuple_CheckExact(counts) || PyTuple_GET_SIZE(counts) != KINDS) {
        Py_DECREF(counts);
        return -1;
    }
    h->n = 0;
    for (int k = 0; k < KINDS; k++) {
        PyObject *x = PyTuple_GET_ITEM(counts, k);
        if (!PyLong_CheckExact(x)) {
            Py_DECREF(counts);
            return -1;
        }
        long c = PyLong_AsLong(x);
        if (c < 0 || c > 4) {
            Py_DECREF(counts);
            PyErr_Clear();
            return -1;
        }
        h->counts[k] = h->totals[k] = (int)c;
        h->n += (int)c;
    }
    Py_DECREF(counts);
    PyObject *melds = PyObject_GetAttr(hand, str_melds);
    if (melds == NULL) goto fail;
    if (!PyTuple_CheckExact(melds) || PyTuple_GET_SIZE(melds) > 4) {
        Py_DECREF(melds);
        return -1;
    }
    h->n_melds = (int)PyTuple_GET_SIZE(melds);
    for (int i = 0; i < h->n_melds; i++) {
        PyObject *m = PyTuple_GET_ITEM(melds, i);
        PyObject *tile = PyObject_GetAttr(m, str_tile);
        PyObject *kind = tile ? PyObject_GetAttr(m, str_kind) : NULL;
        long t = tile ? PyLong_AsLong(tile) : -1;
        int size = kind == pong_kind ? 3 : 4;
        Py_XDECREF(tile);
        Py_XDECREF(kind);
        if (kind == NULL || t < 0 || t >= KINDS) {
            Py_DECREF(melds);
            goto fail;
        }
        h->meld_tile[i] = (int)t;
        h->totals[t] += size;
        if (h->totals[t] > 4) {
            Py_DECREF(melds);
            return -1;
        }
    }
    Py_DECREF(melds);
    return 0;
fail:
    PyErr_Clear();
    return -1;
}

/* Hand.check: every tile (melds too) of the variant; the size is one of `sizes` (bit r: n % 3 == r). */
static int hand_fits(const Plan *p, const HandView *h, int sizes) {
    for (int k = 0; k < KINDS; k++)
        if (h->totals[k] && !(p->kinds >> k & 1)) return 0;
    return h->n != 0 && (sizes >> (h->n % 3) & 1) && h->n + 3 * h->n_melds <= 14;
}

static int seven_pairs_distance(int pairs, int tiles) {
    int need = 7 - pairs;
    if (need <= 0) return 0;
    int singles = tiles - 2 * pairs;
    return need + (need - singles > 0 ? need - singles : 0);
}

/* analysis.shanten_counts on a read hand */
static int shanten_of(const Plan *p, const HandView *h, int v) {
    int sets = (h->n - 1) / 3;
    int seven = h->n_melds == 0 && h->n >= 13;
    int need_mask = 0; /* groups a Sichuan hand must keep: those its melds are in */
    if (p->two_suit)
        for (int i = 0; i < h->n_melds; i++) {
            int t = h->meld_tile[i];
            if (t < 27) need_mask |= 1 << p->suit_group[t / 9];
        }
    const uint8_t *row[MAX_GROUPS];
    uint8_t capped[MAX_GROUPS][ROW];
    int pairs[MAX_GROUPS], tiles[MAX_GROUPS], cls[MAX_GROUPS];
    for (int g = 0; g < p->n_groups; g++) {
        int s = p->start[g], n = p->size[g];
        int caps[9], low = 0;
        for (int i = 0; i < n; i++) {
            caps[i] = 4 - (h->totals[s + i] - h->counts[s + i]);
            low |= caps[i] < 4;
        }
        if (low) {
            capped_row(h->counts + s, caps, n, n == 9, capped[g]);
            row[g] = capped[g];
            cls[g] = -1;
        } else {
            uint16_t packed = packed_of(p, g, h->counts);
            cls[g] = packed & 255;
            row[g] = rows[cls[g]];
            pairs[g] = packed >> 8;
        }
        int t = 0;
        for (int i = 0; i < n; i++) t += h->counts[s + i];
        tiles[g] = t;
    }
    int best = NO_WIN + 1;
    for (int c = 0; c < p->n_choices[v]; c++) {
        int mask = p->choice[v][c];
        if ((mask & need_mask) != need_mask) continue;
        int idx[MAX_GROUPS] = {0}, k = 0;
        for (int g = 0; g < p->n_groups; g++)
            if (mask >> g & 1) idx[k++] = g;
        int d;
        if (k == 1) {
            d = row[idx[0]][sets * 2 + 1];
        } else {
            uint8_t acc[ROW];
            const uint8_t *left = row[idx[0]];
            int i = 1;
            if (k >= 3 && cls[idx[0]] >= 0 && cls[idx[1]] >= 0) { /* the two first groups' combination, precomputed */
                left = pair_rows + ((size_t)cls[idx[0]] * n_classes + cls[idx[1]]) * ROW;
                i = 2;
            }
            for (; i < k - 1; i++) {
                min_plus(left, row[idx[i]], acc);
                left = acc;
            }
            d = final_two(left, row[idx[k - 1]], sets);
        }
        if (seven) { /* closed: every row came from the table, with its pair count */
            int pr = 0, tl = 0;
            for (int i = 0; i < k; i++) {
                pr += pairs[idx[i]];
                tl += tiles[idx[i]];
            }
            if (7 - pr < d) {
                int d7 = seven_pairs_distance(pr, tl);
                if (d7 < d) d = d7;
            }
        }
        if (d < best) best = d;
    }
    return best - 1;
}

/* analysis.waits_counts on a read hand: kinds in order, written to out; returns how many */
static int waits_of(const Plan *p, const HandView *h, int v, int *out) {
    if (p->two_suit) {
        int present = 0, void_present = 0;
        for (int s = 0; s < 3; s++) {
            if (p->suit_group[s] < 0) continue;
            int any = 0;
            for (int i = 0; i < 9; i++) any |= h->totals[s * 9 + i];
            if (any) {
                present++;
                if (v == s + 1) void_present = 1;
            }
        }
        if (present > 2 || void_present) return 0;
    }
    int n_of[MAX_GROUPS], rem[MAX_GROUPS], done[MAX_GROUPS], unfinished = 0, first_unfinished = -1;
    for (int g = 0; g < p->n_groups; g++) {
        int s = p->start[g], n = 0;
        for (int i = 0; i < p->size[g]; i++) n += h->counts[s + i];
        uint16_t packed = packed_of(p, g, h->counts);
        int r = n % 3;
        n_of[g] = n;
        rem[g] = r;
        done[g] = r != 1 && rows[packed & 255][(n / 3) * 2 + (r == 2)] == 0;
        if (!done[g]) {
            if (first_unfinished < 0) first_unfinished = g;
            unfinished++;
        }
    }
    int found = 0;
    if (unfinished < 2)
        for (int g = 0; g < p->n_groups; g++) {
            int n = n_of[g];
            if ((n + 1) % 3 == 1 || (unfinished && first_unfinished != g)) continue;
            int pair_groups = (n + 1) % 3 == 2;
            for (int j = 0; j < p->n_groups; j++)
                if (j != g && rem[j] == 2) pair_groups++;
            if (pair_groups != 1) continue;
            if (p->two_suit && n == 0) continue;
            int idx = ((n + 1) / 3) * 2 + ((n + 1) % 3 == 2);
            int s = p->start[g];
            if (p->size[g] == 9) {
                int key = suit_key(h->counts, s), pow = 390625; /* 5 ** 8 */
                for (int r = 0; r < 9; r++, pow /= 5)
                    if (h->totals[s + r] < 4 && rows[suit_table[key + pow] & 255][idx] == 0) out[found++] = s + r;
            } else {
                static const int pows[3] = {25, 5, 1};
                int key = (h->counts[s] * 5 + h->counts[s + 1]) * 5 + h->counts[s + 2];
                for (int r = 0; r < 3; r++)
                    if (h->totals[s + r] < 4 && rows[honour_table[key + pows[r]] & 255][idx] == 0)
                        out[found++] = s + r;
            }
        }
    if (h->n_melds == 0 && h->n == 13) { /* seven pairs: six pairs and one odd tile */
        int pairs = 0, odd = -1;
        for (int k = 0; k < KINDS; k++) {
            pairs += h->counts[k] / 2;
            if (odd < 0 && h->counts[k] % 2) odd = k;
        }
        if (pairs == 6 && h->totals[odd] < 4) {
            int at = 0;
            while (at < found && out[at] < odd) at++;
            if (at == found || out[at] != odd) {
                memmove(out + at + 1, out + at, (size_t)(found - at) * sizeof(int));
                out[at] = odd;
                found++;
            }
        }
    }
    return found;
}

/* ------------------------------------------------------------------------------------------ */

static int parse_args(PyObject *const *args, Py_ssize_t nargs, const char *name, PyObject **hand,
                      PyObject **variant, PyObject **void_) {
    if (nargs < 2 || nargs > 3) {
        PyErr_Format(PyExc_TypeError, "%s(hand, variant, void=None)", name);
        return -1;
    }
    *hand = args[0];
    *variant = args[1];
    *void_ = nargs == 3 ? args[2] : Py_None;
    return 0;
}

static PyObject *py_shanten(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *hand, *variant, *void_;
    if (parse_args(args, nargs, "shanten", &hand, &variant, &void_) < 0) return NULL;
    const Plan *p = plan_for(variant);
    int v = void_index(void_);
    HandView h;
    if (p == NULL || v < 0 || p->n_choices[v] < 0 || read_hand(hand, &h) < 0 || !hand_fits(p, &h, 6))
        Py_RETURN_NONE;
    return PyLong_FromLong(shanten_of(p, &h, v));
}

static PyObject *py_waits(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *hand, *variant, *void_;
    if (parse_args(args, nargs, "waits", &hand, &variant, &void_) < 0) return NULL;
    const Plan *p = plan_for(variant);
    int v = void_index(void_);
    HandView h;
    if (p == NULL || all_tiles == NULL || v < 0 || p->n_choices[v] < 0 || read_hand(hand, &h) < 0 ||
        !hand_fits(p, &h, 2))
        Py_RETURN_NONE;
    int out[KINDS];
    int n = waits_of(p, &h, v, out);
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(all_tiles, out[i]);
        Py_INCREF(t);
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *py_setup(PyObject *self, PyObject *args) {
    /* setup(suit: bytes-like uint16, honour: uint16, rows: bytes (classes x 10), resolver,
     *       all_tiles, pong_kind): the tables once, from analysis.py */
    PyObject *suit, *honour, *row_bytes, *res, *tiles, *pong;
    if (!PyArg_ParseTuple(args, "OOSOO!O", &suit, &honour, &row_bytes, &res, &PyTuple_Type, &tiles, &pong))
        return NULL;
    Py_buffer sb, hb;
    if (PyObject_GetBuffer(suit, &sb, PyBUF_CONTIG_RO) < 0) return NULL;
    if (PyObject_GetBuffer(honour, &hb, PyBUF_CONTIG_RO) < 0) {
        PyBuffer_Release(&sb);
        return NULL;
    }
    Py_ssize_t rl = PyBytes_GET_SIZE(row_bytes);
    int ok = sb.len == 2 * 1953125 && hb.len == 2 * 125 && rl % ROW == 0 && rl / ROW <= MAX_CLASSES &&
             PyTuple_GET_SIZE(tiles) == KINDS;
    const uint16_t *s = sb.buf, *hn = hb.buf;
    Py_ssize_t sl = sb.len / 2, hl = hb.len / 2;
    PyBuffer_Release(&sb);
    PyBuffer_Release(&hb);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "tables of the wrong size");
        return NULL;
    }
    int nc = (int)(rl / ROW);
    for (Py_ssize_t i = 0; i < sl; i++)
        if ((s[i] & 255) >= nc) ok = 0;
    for (Py_ssize_t i = 0; i < hl; i++)
        if ((hn[i] & 255) >= nc) ok = 0;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "a table names a class that does not exist");
        return NULL;
    }
    uint8_t *pr = PyMem_Malloc((size_t)nc * nc * ROW);
    if (pr == NULL) return PyErr_NoMemory();
    memcpy(rows, PyBytes_AS_STRING(row_bytes), (size_t)rl);
    for (int a = 0; a < nc; a++)
        for (int b = 0; b < nc; b++) min_plus(rows[a], rows[b], pr + ((size_t)a * nc + b) * ROW);
    PyMem_Free(pair_rows);
    pair_rows = pr;
    n_classes = nc;
    /* the buffers stay valid while their owners live: keep them */
    Py_XSETREF(table_owner, Py_BuildValue("(OO)", suit, honour));
    if (table_owner == NULL) return NULL;
    suit_table = s;
    suit_len = sl;
    honour_table = hn;
    honour_len = hl;
    Py_INCREF(res);
    Py_XSETREF(resolver, res);
    Py_INCREF(tiles);
    Py_XSETREF(all_tiles, tiles);
    Py_INCREF(pong);
    Py_XSETREF(pong_kind, pong);
    for (int i = 0; i < n_plans; i++) Py_DECREF(plans[i].key);
    n_plans = next_evict = 0;
    memset(cap_cache, 0, sizeof cap_cache);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", py_setup, METH_VARARGS, "Hand over the shipped tables and the plan resolver (analysis.py does)."},
    {"shanten", (PyCFunction)(void (*)(void))py_shanten, METH_FASTCALL,
     "shanten(hand, variant, void=None): as analysis.shanten, or None when the Python path must answer."},
    {"waits", (PyCFunction)(void (*)(void))py_waits, METH_FASTCALL,
     "waits(hand, variant, void=None): as analysis.waits, or None when the Python path must answer."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups",
                                    "The C hot path of majiang.core.analysis (optional).", -1, methods};

PyMODINIT_FUNC PyInit__speedups(void) {
    str_counts = PyUnicode_InternFromString("counts");
    str_melds = PyUnicode_InternFromString("melds");
    str_tile = PyUnicode_InternFromString("tile");
    str_kind = PyUnicode_InternFromString("kind");
    if (!str_counts || !str_melds || !str_tile || !str_kind) return NULL;
    return PyModule_Create(&module);
}
