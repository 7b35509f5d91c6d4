/* The hot path of majiang.core.analysis in C: shanten and waits of one hand per call.
 *
 * An optional accelerator of the pure-Python analysis (which stays the reference and the
 * fallback): the same shipped tables, handed over once by analysis.py, and the same arithmetic.
 * Whatever this module cannot decide (a bad hand, an unknown variant, a bad void, odd
 * arguments) it hands, as called, to the Python function, which gives the result or raises its
 * usual error; so validation messages live in one place. A variant's plan (groups, win choices
 * per void) is resolved once by a Python callback and kept here, keyed by the variant object.
 * Also batch.batch_shanten and batch.batch_waits over a numpy array in one call (tables laid
 * out for them once: the two-group shanten of every pair of classes, each suit's waits by rank).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
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

/* A suit's class by the rank of its vector among those of at most 14 tiles (405,350 of them:
 * 400 kB, which stays in cache, where the shipped 5**9 table of uint16 is 3.9 MB and does not) */
#define SUIT_VECTORS 405350
static uint8_t *suit_class;
static int rank_step[9][15][5]; /* rank = sum over kinds i of rank_step[i][tiles before i][count at i] */
static uint8_t honour_class[125];
static uint8_t rows[MAX_CLASSES][ROW];
static int n_classes;
static uint8_t *pair_rows; /* min-plus of two classes: [a * n_classes + b][ROW] */
static int disabled; /* the tables could not be set up: every call goes to Python */
static PyObject *resolver;     /* variant -> plan tuple (analysis._speedup_plan) */
static PyObject *shanten_fallback, *waits_fallback; /* the Python functions, for what C does not decide */
static PyObject *loader;       /* () -> the tables, called on the first call */
static unsigned long long forwarded;
static PyObject *small_int[5]; /* the interpreter's cached 0..4, to read counts by identity */
static int small_shift;        /* log2 of the distance between them, when they lie evenly apart; else 0 */
static PyObject *str_arg[3];   /* "hand", "variant", "void" */
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

/* the rank of nine counts holding at most 14 tiles */
static inline int suit_rank(const int *c) {
    int r = 0, before = 0;
    for (int i = 0; i < 9; i++) {
        r += rank_step[i][before][c[i]];
        before += c[i];
    }
    return r;
}

static void fill_rank_steps(void) {
    int fit[10][15]; /* fit[k][s]: vectors of k counts (0-4) holding at most s tiles */
    for (int s = 0; s < 15; s++) fit[0][s] = 1;
    for (int k = 1; k < 10; k++)
        for (int s = 0; s < 15; s++) {
            fit[k][s] = 0;
            for (int v = 0; v <= 4 && v <= s; v++) fit[k][s] += fit[k - 1][s - v];
        }
    for (int i = 0; i < 9; i++)
        for (int before = 0; before < 15; before++)
            for (int c = 0; c < 5; c++) {
                int r = 0;
                for (int v = 0; v < c && before + v <= 14; v++) r += fit[8 - i][14 - before - v];
                rank_step[i][before][c] = r;
            }
}

/* The same rank in three reads, one per block of three kinds, for batch rows: a block's part of
 * the rank by the tiles before the block and the block's counts in base 5, the block's pairs in
 * the top byte (the parts' ranks add up to below 2**24, so the pairs add up apart). */
static uint32_t rank_block[3][15][125];

static void fill_rank_blocks(void) {
    for (int b = 0; b < 3; b++)
        for (int before = 0; before < 15; before++)
            for (int key = 0; key < 125; key++) {
                int c[3] = {key / 25, key / 5 % 5, key % 5}, t = before, r = 0, pairs = 0;
                for (int j = 0; j < 3; j++) {
                    r += rank_step[3 * b + j][t < 14 ? t : 14][c[j]];
                    t += c[j];
                    pairs += c[j] >> 1;
                }
                rank_block[b][before][key] = (uint32_t)r | (uint32_t)pairs << 24;
            }
}

/* The rank of nine 1-byte counts (each 0-4), their tiles and pairs; rank 0 (a valid index, the
 * caller sees the tiles) for more than 14 tiles. */
static inline int block_rank(const uint8_t *c, int *tiles, int *pairs) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* eight counts a word (byte k is count k): one multiplication puts 25 c[k-2] + 5 c[k-1] +
     * c[k] in byte k, another the sum of counts 0..k (no byte carries: at most 124 and 32) */
    uint64_t w, w1;
    memcpy(&w, c, 8);
    memcpy(&w1, c + 1, 8);
    uint64_t keys = w * 0x190501u, keys1 = w1 * 0x190501u, before = w * 0x0101010101010101ull;
    int t0 = (int)(before >> 16 & 255), t1 = (int)(before >> 40 & 255), t = (int)(before >> 56) + c[8];
    int k0 = (int)(keys >> 16 & 255), k1 = (int)(keys >> 40 & 255), k2 = (int)(keys1 >> 56);
#else
    int t0 = c[0] + c[1] + c[2], t1 = t0 + c[3] + c[4] + c[5], t = t1 + c[6] + c[7] + c[8];
    int k0 = (c[0] * 5 + c[1]) * 5 + c[2], k1 = (c[3] * 5 + c[4]) * 5 + c[5], k2 = (c[6] * 5 + c[7]) * 5 + c[8];
#endif
    uint32_t s = rank_block[0][0][k0] + rank_block[1][t0][k1] + rank_block[2][t1 < 14 ? t1 : 14][k2];
    *tiles = t;
    *pairs = (int)(s >> 24);
    return t > 14 ? 0 : (int)(s & 0xFFFFFF);
}

static inline int class_of(const Plan *p, int g, const int *c) {
    int s = p->start[g];
    if (p->size[g] == 9) return suit_class[suit_rank(c + s)];
    return honour_class[(c[s] * 5 + c[s + 1]) * 5 + c[s + 2]];
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

/* The plan of a variant, or NULL (no exception set) when the Python path must answer. Callers
 * copy it: Python code run later in the call (an attribute, a buffer) could reuse its slot. */
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
    uint32_t held; /* bit k: kind k is in the hand or its melds */
} HandView;

static int read_hand(PyObject *hand, HandView *h) {
    PyObject *counts = PyObject_GetAttr(hand, str_counts);
    if (counts == NULL) goto fail;
    if (!PyTuple_CheckExact(counts) || PyTuple_GET_SIZE(counts) != KINDS) {
        Py_DECREF(counts);
        return -1;
    }
    h->n = 0;
    h->held = 0;
    if (small_shift > 0) { /* the small ints lie side by side: a count is its offset from 0's */
        uintptr_t bad = 0, mask = ((uintptr_t)1 << small_shift) - 1;
        for (int k = 0; k < KINDS; k++) {
            uintptr_t d = (uintptr_t)PyTuple_GET_ITEM(counts, k) - (uintptr_t)small_int[0];
            bad |= (d & mask) | ((d >> small_shift) > 4);
            int c = (int)((d >> small_shift) & 7);
            h->counts[k] = h->totals[k] = c;
            h->n += c;
            h->held |= (uint32_t)(c != 0) << k;
        }
        if (!bad) goto counted;
        h->n = 0; /* not all of them 0-4: read them one by one */
        h->held = 0;
    }
    for (int k = 0; k < KINDS; k++) {
        PyObject *x = PyTuple_GET_ITEM(counts, k);
        /* counts are the interpreter's shared small ints: read them by identity, without branches
         * (random hands would mispredict a chain of tests on every kind) */
        long c = (x == small_int[1]) + 2 * (x == small_int[2]) + 3 * (x == small_int[3]) + 4 * (x == small_int[4]);
        if (!((x == small_int[0]) | (c != 0))) {
            if (!PyLong_CheckExact(x)) {
                Py_DECREF(counts);
                return -1;
            }
            c = PyLong_AsLong(x);
        }
        if (c < 0 || c > 4) {
            Py_DECREF(counts);
            PyErr_Clear();
            return -1;
        }
        h->counts[k] = h->totals[k] = (int)c;
        h->n += (int)c;
        h->held |= (uint32_t)(c != 0) << k;
    }
counted:
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
        h->held |= (uint32_t)1 << t;
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
    if (h->held & ~p->kinds) return 0;
    return h->n != 0 && (sizes >> (h->n % 3) & 1) && h->n + 3 * h->n_melds <= 14;
}

static inline int seven_pairs_distance(int pairs, int tiles) {
    int need = 7 - pairs;
    int short_of = need - (tiles - 2 * pairs); /* singles missing to pair up */
    int d = need + (short_of > 0 ? short_of : 0);
    return need > 0 ? d : 0;
}

/* analysis.shanten_counts on a read hand */
/* analysis.shanten_counts: ``sets`` sets and a pair, seven pairs when ``seven`` */
static int meld_groups(const Plan *p, const HandView *h) {
    int need_mask = 0; /* groups a Sichuan hand must keep: those its melds are in */
    if (p->two_suit)
        for (int i = 0; i < h->n_melds; i++) {
            int t = h->meld_tile[i];
            if (t < 27) need_mask |= 1 << p->suit_group[t / 9];
        }
    return need_mask;
}

/* ``capped``: some kinds have fewer than four copies left (totals - counts are held elsewhere);
 * ``need_mask``: the groups every win must use */
static int shanten_sets(const Plan *p, const HandView *h, int v, int sets, int seven, int capped_any, int need_mask) {
    const uint8_t *row[MAX_GROUPS];
    uint8_t capped[MAX_GROUPS][ROW];
    int pairs[MAX_GROUPS], tiles[MAX_GROUPS], cls[MAX_GROUPS];
    for (int g = 0; g < p->n_groups; g++) {
        int s = p->start[g], n = p->size[g];
        const int *c = h->counts + s;
        if (!capped_any) { /* every copy can still come: rank, pairs and tiles in one pass */
            int r = 0, before = 0, pr = 0;
            if (n == 9) {
                for (int i = 0; i < 9; i++) {
                    r += rank_step[i][before][c[i]];
                    before += c[i];
                    pr += c[i] >> 1;
                }
                cls[g] = suit_class[r];
            } else {
                before = c[0] + c[1] + c[2];
                pr = (c[0] >> 1) + (c[1] >> 1) + (c[2] >> 1);
                cls[g] = honour_class[(c[0] * 5 + c[1]) * 5 + c[2]];
            }
            row[g] = rows[cls[g]];
            pairs[g] = pr;
            tiles[g] = before;
            continue;
        }
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
            cls[g] = class_of(p, g, h->counts);
            row[g] = rows[cls[g]];
        }
        pairs[g] = 0; /* a four counts as two pairs */
        for (int i = 0; i < n; i++) pairs[g] += h->counts[s + i] >> 1;
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
            /* the Python path takes this only when 7 - pairs < d; as the distance is at least
             * 7 - pairs, taking the least of the two always is the same, and has no branch */
            int d7 = seven_pairs_distance(pr, tl);
            d = d7 < d ? d7 : d;
        }
        best = d < best ? d : best;
    }
    return best - 1;
}

/* analysis.waits_counts on a read hand: kinds in order, written to out; returns how many */
static int waits_of(const Plan *p, const HandView *h, int v, int closed, int *out) {
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
        int r = n % 3;
        n_of[g] = n;
        rem[g] = r;
        done[g] = r != 1 && rows[class_of(p, g, h->counts)][(n / 3) * 2 + (r == 2)] == 0;
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
                int c[9];
                memcpy(c, h->counts + s, sizeof c);
                for (int r = 0; r < 9; r++) {
                    if (h->totals[s + r] >= 4) continue;
                    c[r]++;
                    if (rows[suit_class[suit_rank(c)]][idx] == 0) out[found++] = s + r;
                    c[r]--;
                }
            } else {
                static const int pows[3] = {25, 5, 1};
                int key = (h->counts[s] * 5 + h->counts[s + 1]) * 5 + h->counts[s + 2];
                for (int r = 0; r < 3; r++)
                    if (h->totals[s + r] < 4 && rows[honour_class[key + pows[r]]][idx] == 0)
                        out[found++] = s + r;
            }
        }
    if (closed && h->n == 13) { /* seven pairs: six pairs and one odd tile */
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

/* The arguments (hand, variant, void=None), positional or by name; 0, or -1 when they are
 * anything else (the Python function then gets the call, and raises its own TypeError). */
static int parse_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **out) {
    out[0] = out[1] = NULL;
    out[2] = Py_None;
    if (nargs > 3) return -1;
    for (Py_ssize_t i = 0; i < nargs; i++) out[i] = args[i];
    Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        int at = -1;
        for (int j = 0; j < 3; j++)
            if (name == str_arg[j] || PyUnicode_Compare(name, str_arg[j]) == 0) at = j;
        if (at < nargs) return -1; /* unknown, or given twice */
        out[at] = args[nargs + i];
    }
    return out[0] && out[1] ? 0 : -1;
}

static int ensure_tables(void);

/* Hand the call, unchanged, to the Python function: what C does not decide, Python does. */
static PyObject *forward(PyObject *fallback, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    forwarded++;
    return PyObject_Vectorcall(fallback, args, (size_t)nargs, kwnames);
}

/* One call's hand, plan (copied: meld groups may be added to it) and void, or -1 when C cannot
 * decide and the Python function must answer. ``sizes``: the hand sizes it takes, as hand_fits. */
static int read_call(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int sizes, Plan *plan,
                     HandView *h, int *v) {
    PyObject *a[3];
    const Plan *p;
    if (disabled || parse_args(args, nargs, kwnames, a) < 0 || (p = plan_for(a[1])) == NULL) return -1;
    *plan = *p;
    if ((*v = void_index(a[2])) < 0 || plan->n_choices[*v] < 0 || read_hand(a[0], h) < 0 ||
        !hand_fits(plan, h, sizes))
        return -1;
    return 0;
}

static PyObject *py_shanten(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)self;
    if (ensure_tables() < 0) return NULL;
    int v;
    Plan plan;
    HandView h;
    if (read_call(args, nargs, kwnames, 6, &plan, &h, &v) < 0) return forward(shanten_fallback, args, nargs, kwnames);
    return PyLong_FromLong(shanten_sets(&plan, &h, v, (h.n - 1) / 3, h.n_melds == 0 && h.n >= 13, h.n_melds > 0,
                                        meld_groups(&plan, &h)));
}

static PyObject *py_waits(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)self;
    if (ensure_tables() < 0) return NULL;
    int v;
    Plan plan;
    HandView h;
    if (read_call(args, nargs, kwnames, 2, &plan, &h, &v) < 0) return forward(waits_fallback, args, nargs, kwnames);
    int out[KINDS];
    int n = waits_of(&plan, &h, v, h.n_melds == 0, out);
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(all_tiles, out[i]);
        Py_INCREF(t);
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

/* counts (or caps) as a list or tuple of at least 30 small ints; 0 on success */
static int read_vector(PyObject *seq, int *out) {
    if (!(PyList_CheckExact(seq) || PyTuple_CheckExact(seq)) || PySequence_Fast_GET_SIZE(seq) < KINDS) return -1;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int k = 0; k < KINDS; k++) {
        PyObject *x = items[k];
        if (!PyLong_CheckExact(x)) return -1;
        long c = PyLong_AsLong(x);
        if (c < 0 || c > 4) {
            PyErr_Clear();
            return -1;
        }
        out[k] = (int)c;
    }
    return 0;
}

static PyObject *shanten_counts_fallback;
static PyObject *str_counts_args[7]; /* counts, variant, sets, void, caps, seven_pairs, meld_suits */

/* analysis.shanten_counts(counts, variant, sets=4, void=None, caps=None, seven_pairs=None,
 * meld_suits=""): count vectors as lists or tuples; anything else goes to the Python function. */
static PyObject *py_shanten_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)self;
    if (ensure_tables() < 0) return NULL;
    PyObject *a[7] = {NULL, NULL, NULL, Py_None, Py_None, Py_None, NULL};
    int ok = !disabled && nargs <= 7;
    for (Py_ssize_t i = 0; ok && i < nargs; i++) a[i] = args[i];
    Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; ok && i < nk; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        int at = -1;
        for (int j = 0; j < 7; j++)
            if (name == str_counts_args[j] || PyUnicode_Compare(name, str_counts_args[j]) == 0) at = j;
        if (at < nargs) ok = 0;
        else a[at] = args[nargs + i];
    }
    ok = ok && a[0] && a[1];
    HandView h;
    int sets = 4, v = -1, seven = -1, capped_any = 0, need_mask = 0;
    const Plan *found = NULL;
    if (ok && a[2]) {
        sets = (int)PyLong_AsLong(a[2]);
        if (PyErr_Occurred() || sets < 0 || sets > 4 || !PyLong_CheckExact(a[2])) ok = 0;
        PyErr_Clear();
    }
    if (ok) v = void_index(a[3]);
    if (ok && a[5] != Py_None) seven = a[5] == Py_True ? 1 : a[5] == Py_False ? 0 : (ok = 0, 0);
    ok = ok && v >= 0 && read_vector(a[0], h.counts) == 0;
    if (ok && a[4] != Py_None) {
        int caps[KINDS];
        ok = read_vector(a[4], caps) == 0;
        for (int k = 0; ok && k < KINDS; k++) {
            h.totals[k] = h.counts[k] + 4 - caps[k];
            capped_any |= caps[k] < 4;
        }
    } else if (ok) {
        memcpy(h.totals, h.counts, sizeof h.counts);
    }
    if (ok) {
        h.n = 0;
        for (int k = 0; k < KINDS; k++) h.n += h.counts[k];
        if (seven < 0) seven = sets == 4 && a[4] == Py_None;
        found = plan_for(a[1]);
        ok = found != NULL && found->n_choices[v] >= 0;
    }
    Plan plan;
    if (ok) {
        plan = *found;
        for (int g = 0; ok && g < plan.n_groups; g++) { /* the ranked table holds groups of at most 14 tiles */
            int t = 0;
            for (int k = 0; k < plan.size[g]; k++) t += h.counts[plan.start[g] + k];
            ok = t <= 14;
        }
    }
    if (ok && a[6]) { /* the suits of the melds, which every win must use */
        if (!PyUnicode_Check(a[6])) ok = 0;
        Py_ssize_t len = ok ? PyUnicode_GET_LENGTH(a[6]) : 0;
        for (Py_ssize_t i = 0; ok && i < len; i++) {
            Py_UCS4 ch = PyUnicode_READ_CHAR(a[6], i);
            int suit = ch == 'm' ? 0 : ch == 'p' ? 1 : ch == 's' ? 2 : -1;
            if (suit < 0) ok = 0;
            else need_mask |= plan.suit_group[suit] < 0 ? 1 << 7 : 1 << plan.suit_group[suit];
        }
    }
    if (!ok) {
        PyErr_Clear();
        forwarded++;
        return PyObject_Vectorcall(shanten_counts_fallback, args, (size_t)nargs, kwnames);
    }
    return PyLong_FromLong(shanten_sets(&plan, &h, v, sets, seven, capped_any, need_mask));
}

static PyObject *waits_counts_fallback;
static PyObject *str_waits_args[5]; /* counts, totals, variant, void, closed */

/* analysis.waits_counts(counts, totals, variant, void=None, closed=True) on lists or tuples and
 * a Variant (a name goes to Python, which takes only a Variant here) */
static PyObject *py_waits_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)self;
    if (ensure_tables() < 0) return NULL;
    PyObject *a[5] = {NULL, NULL, NULL, Py_None, Py_True};
    int ok = !disabled && nargs <= 5;
    for (Py_ssize_t i = 0; ok && i < nargs; i++) a[i] = args[i];
    Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; ok && i < nk; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        int at = -1;
        for (int j = 0; j < 5; j++)
            if (name == str_waits_args[j] || PyUnicode_Compare(name, str_waits_args[j]) == 0) at = j;
        if (at < nargs) ok = 0;
        else a[at] = args[nargs + i];
    }
    ok = ok && a[0] && a[1] && a[2] && !PyUnicode_Check(a[2]) && (a[4] == Py_True || a[4] == Py_False);
    HandView h;
    int v = ok ? void_index(a[3]) : -1;
    ok = ok && v >= 0 && read_vector(a[0], h.counts) == 0 && read_vector(a[1], h.totals) == 0;
    const Plan *found = ok ? plan_for(a[2]) : NULL;
    Plan plan;
    ok = found != NULL && found->n_choices[v] >= 0;
    if (ok) {
        plan = *found;
        h.n = 0;
        for (int k = 0; k < KINDS; k++) h.n += h.counts[k];
        for (int g = 0; ok && g < plan.n_groups; g++) { /* a drawn tile must stay in the ranked table */
            int t = 0;
            for (int k = 0; k < plan.size[g]; k++) t += h.counts[plan.start[g] + k];
            ok = t <= 13;
        }
    }
    if (!ok) {
        PyErr_Clear();
        forwarded++;
        return PyObject_Vectorcall(waits_counts_fallback, args, (size_t)nargs, kwnames);
    }
    int out[KINDS];
    int n = waits_of(&plan, &h, v, a[4] == Py_True, out);
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = PyLong_FromLong(out[i]);
        if (t == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

/* shanten_rows(counts, out, variant, void, sets): batch.batch_shanten over an (N, 27 or 30) array
 * of closed hands' counts (any integer type), into ``out`` (N int8); True when done, False when
 * the numpy path must answer (a variant or void it does not take, a count out of 0-4, a group
 * of more than 14 tiles). */
static PyObject *py_shanten_rows(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *counts, *out, *variant, *void_;
    int sets;
    if (!PyArg_ParseTuple(args, "OOOOi", &counts, &out, &variant, &void_, &sets)) return NULL;
    if (ensure_tables() < 0) return NULL;
    const Plan *found = disabled ? NULL : plan_for(variant);
    int v = void_index(void_);
    if (found == NULL || v < 0 || found->n_choices[v] < 0 || sets < 0 || sets > 4) Py_RETURN_FALSE;
    Plan plan = *found;
    const Plan *p = &plan;
    for (int c = 0; c < p->n_choices[v]; c++) /* the numpy path refuses a single group */
        if (!(p->choice[v][c] & (p->choice[v][c] - 1))) Py_RETURN_FALSE;
    Py_buffer cb, ob;
    /* not a contiguous buffer (a strided view, a list): the numpy path takes it */
    if (PyObject_GetBuffer(counts, &cb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    if (PyObject_GetBuffer(out, &ob, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&cb);
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    /* the integer type: a native-order format letter, after an optional byte-order mark */
    char type = cb.format ? cb.format[cb.format[0] == '<' || cb.format[0] == '=' || cb.format[0] == '@'] : 0;
    int ok = cb.ndim == 2 && (cb.shape[1] == 30 || cb.shape[1] == 27) && ob.ndim == 1 && ob.shape[0] == cb.shape[0] &&
             ob.itemsize == 1 && ob.format && (ob.format[0] == 'b' || ob.format[0] == 'c') && type &&
             strchr("bBhHiIlLqQ", type) &&
             (cb.itemsize == 1 || cb.itemsize == 2 || cb.itemsize == 4 || cb.itemsize == 8);
    for (int g = 0; ok && g < p->n_groups; g++) ok = p->start[g] + p->size[g] <= cb.shape[1];
    Py_ssize_t n = ok ? cb.shape[0] : 0, width = ok ? cb.shape[1] : 0;
    int is_signed = ok && strchr("bhilq", type);
    HandView h;
    memset(&h, 0, sizeof h);
    int8_t *dst = ob.buf;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        const char *row = (const char *)cb.buf + i * width * cb.itemsize;
        unsigned bad = 0;
        h.n = 0;
        for (Py_ssize_t k = 0; k < width; k++) {
            long long x;
            switch (cb.itemsize) {
            case 1: x = is_signed ? (long long)((const int8_t *)row)[k] : (long long)((const uint8_t *)row)[k]; break;
            case 2: x = is_signed ? (long long)((const int16_t *)row)[k] : (long long)((const uint16_t *)row)[k]; break;
            case 4: x = is_signed ? (long long)((const int32_t *)row)[k] : (long long)((const uint32_t *)row)[k]; break;
            default: x = ((const int64_t *)row)[k]; break;
            }
            bad |= (unsigned long long)x > 4;
            h.counts[k] = h.totals[k] = (int)(x & 7);
            h.n += (int)(x & 7);
        }
        for (int g = 0; g < p->n_groups; g++) {
            int t = 0;
            for (int k = 0; k < p->size[g]; k++) t += h.counts[p->start[g] + k];
            bad |= t > 14;
        }
        if (bad) {
            ok = 0;
            break;
        }
        dst[i] = (int8_t)shanten_sets(p, &h, v, sets, sets == 4, 0, 0);
    }
    PyBuffer_Release(&cb);
    PyBuffer_Release(&ob);
    return PyBool_FromLong(ok);
}

/* ------------------------------------------------------------------------------------------ */
/* Batches: many closed hands, one row of counts each, in one call. The layout of a variant is
 * worked out once per call (the groups, the choices of groups a win may use), and each row is
 * a few table lookups: a group's class by the rank of its counts, then for two groups the
 * shanten of their classes straight from final2, for three the precomputed pair row and one
 * final step. */

static uint8_t *final2; /* [sets][a * n_classes + b]: shanten + 1 of `sets` sets and a pair from classes a, b */
static uint16_t *suit_wait; /* by rank: bits 0-8 kinds that complete the suit, bit 9 the suit is complete */
static uint16_t honour_wait[125];
static PyObject *batch_shanten_fallback, *batch_waits_fallback, *np_empty, *dtype_int8, *dtype_bool;

#define COMPLETE_BIT (1u << 9)
#define CHUNK_ROWS 256 /* rows done at a time (wider counts are converted a chunk at a time) */

typedef struct {
    int n_choices;
    int size[MAX_CHOICES];
    int group[MAX_CHOICES][MAX_GROUPS];
} Choices;

/* Three groups in one win (Kawuxing, or three suits without the two-suit rule): the min-plus
 * rows of two classes are few distinct ones (180 of 146 * 146), so the third group's class and
 * that row's number give the shanten in one read. */
static uint8_t *pair_class;  /* [a * n_classes + b]: the number of the distinct row pair_rows[a, b] */
static uint8_t *final3;      /* [sets][pair class * n_classes + c]: shanten + 1 of sets sets and a pair */
static int n_pair_classes;   /* 0: not laid out (more than 256 distinct rows, or no memory) */

static void fill_pair_classes(const uint8_t *pairs, int nc) {
    enum { SLOTS = 4096 };
    uint8_t *ids = PyMem_Malloc((size_t)nc * nc), *fin = NULL;
    int16_t *slot = PyMem_Malloc(SLOTS * sizeof(int16_t));
    int32_t first[256]; /* the (a, b) where each distinct row was first seen */
    int found = 0;
    if (ids && slot) {
        for (int i = 0; i < SLOTS; i++) slot[i] = -1;
        for (int ab = 0; found >= 0 && ab < nc * nc; ab++) {
            const uint8_t *row = pairs + (size_t)ab * ROW;
            uint32_t h = 2166136261u;
            for (int j = 0; j < ROW; j++) h = (h ^ row[j]) * 16777619u;
            unsigned at = h & (SLOTS - 1);
            while (slot[at] >= 0 && memcmp(pairs + (size_t)first[slot[at]] * ROW, row, ROW) != 0)
                at = (at + 1) & (SLOTS - 1);
            if (slot[at] < 0) {
                if (found == 256) {
                    found = -1;
                    break;
                }
                first[found] = ab;
                slot[at] = (int16_t)found++;
            }
            ids[ab] = (uint8_t)slot[at];
        }
        if (found > 0) fin = PyMem_Malloc((size_t)5 * found * nc);
        for (int sets = 0; fin && sets < 5; sets++)
            for (int pc = 0; pc < found; pc++)
                for (int c = 0; c < nc; c++)
                    fin[((size_t)sets * found + pc) * nc + c] =
                        (uint8_t)final_two(pairs + (size_t)first[pc] * ROW, rows[c], sets);
    }
    PyMem_Free(slot);
    PyMem_Free(pair_class);
    PyMem_Free(final3);
    pair_class = fin ? ids : NULL;
    final3 = fin;
    n_pair_classes = fin ? found : 0;
    if (!fin) PyMem_Free(ids);
}

static void choices_of(const Plan *p, int v, Choices *out) {
    out->n_choices = p->n_choices[v];
    for (int c = 0; c < out->n_choices; c++) {
        int k = 0;
        for (int g = 0; g < p->n_groups; g++)
            if (p->choice[v][c] >> g & 1) out->group[c][k++] = g;
        out->size[c] = k;
    }
}

/* The rank of a group's nine counts and their pairs and tiles; a group of more than 14 tiles
 * sets *bad (the rank is then 0, a valid index, and the row is not used). Counts are 0-4. */
static inline int rank_of(const uint8_t *c, int *pairs, int *tiles, unsigned *bad) {
    int r = 0, before = 0, pr = 0;
    for (int i = 0; i < 9; i++) {
        int x = c[i];
        r += rank_step[i][before < 14 ? before : 14][x];
        before += x;
        pr += x >> 1;
    }
    *bad |= before > 14;
    *pairs = pr;
    *tiles = before;
    return before > 14 ? 0 : r;
}

/* every count of a row 0-4 (signed bytes below 0 read as over 4) */
static inline unsigned row_bad(const uint8_t *c, Py_ssize_t width) {
    /* eight bytes a word: a byte over 4 has its top bit set after adding 0x7B, or before (a
     * carry out of such a byte only marks the next one too) */
    uint64_t seen = 0;
    Py_ssize_t k = 0;
    for (; k + 8 <= width; k += 8) {
        uint64_t w;
        memcpy(&w, c + k, 8);
        seen |= (w + 0x7B7B7B7B7B7B7B7Bull) | w;
    }
    unsigned bad = (seen & 0x8080808080808080ull) != 0;
    for (; k < width; k++) bad |= c[k] > 4;
    return bad;
}

/* Shanten of one closed row of 1-byte counts; fin is final2 for `sets`. */
static inline int row_shanten(const Plan *p, const Choices *ch, const uint8_t *c, int sets, const uint8_t *fin,
                              unsigned *bad) {
    int cls[MAX_GROUPS], pairs[MAX_GROUPS], tiles[MAX_GROUPS];
    for (int g = 0; g < p->n_groups; g++) {
        const uint8_t *x = c + p->start[g];
        if (p->size[g] == 9) {
            cls[g] = suit_class[rank_of(x, &pairs[g], &tiles[g], bad)];
        } else {
            cls[g] = honour_class[(x[0] * 5 + x[1]) * 5 + x[2]];
            pairs[g] = (x[0] >> 1) + (x[1] >> 1) + (x[2] >> 1);
            tiles[g] = x[0] + x[1] + x[2];
        }
    }
    int best = NO_WIN + 1;
    for (int i = 0; i < ch->n_choices; i++) {
        const int *grp = ch->group[i];
        int d;
        if (ch->size[i] == 2) {
            d = fin[cls[grp[0]] * n_classes + cls[grp[1]]];
        } else {
            const uint8_t *left = pair_rows + ((size_t)cls[grp[0]] * n_classes + cls[grp[1]]) * ROW;
            d = final_two(left, rows[cls[grp[2]]], sets);
        }
        if (sets == 4) {
            int pr = 0, tl = 0;
            for (int j = 0; j < ch->size[i]; j++) {
                pr += pairs[grp[j]];
                tl += tiles[grp[j]];
            }
            int d7 = seven_pairs_distance(pr, tl);
            d = d7 < d ? d7 : d;
        }
        best = d < best ? d : best;
    }
    return best - 1;
}

/* Waits of one closed row of 1-byte counts as a bit mask of kinds: analysis.waits_counts(row,
 * row, variant, void) with each group's answer read from suit_wait / honour_wait. A group of
 * more than 13 tiles sets *bad (the drawn tile would leave the ranked table). */
static inline uint32_t row_waits(const Plan *p, const uint8_t *c, Py_ssize_t width, int v, unsigned *bad) {
    if (p->two_suit) {
        int present = 0, void_present = 0;
        for (int s = 0; s < 3; s++) {
            if (p->suit_group[s] < 0) continue;
            int any = 0;
            for (int i = 0; i < 9; i++) any |= c[s * 9 + i];
            present += any != 0;
            void_present |= any != 0 && v == s + 1;
        }
        if (present > 2 || void_present) return 0;
    }
    int n_of[MAX_GROUPS], rem[MAX_GROUPS], unfinished = 0, first_unfinished = -1;
    unsigned info[MAX_GROUPS];
    for (int g = 0; g < p->n_groups; g++) {
        const uint8_t *x = c + p->start[g];
        int n, pr;
        if (p->size[g] == 9) {
            info[g] = suit_wait[rank_of(x, &pr, &n, bad)];
        } else {
            n = x[0] + x[1] + x[2];
            info[g] = honour_wait[(x[0] * 5 + x[1]) * 5 + x[2]];
        }
        *bad |= n > 13;
        n_of[g] = n;
        rem[g] = n % 3;
        if (!(info[g] & COMPLETE_BIT)) {
            if (first_unfinished < 0) first_unfinished = g;
            unfinished++;
        }
    }
    uint32_t out = 0;
    if (unfinished < 2)
        for (int g = 0; g < p->n_groups; g++) {
            int n = n_of[g];
            if (n % 3 == 0 || (unfinished && first_unfinished != g)) continue;
            int pair_groups = (n + 1) % 3 == 2;
            for (int j = 0; j < p->n_groups; j++) pair_groups += j != g && rem[j] == 2;
            if (pair_groups != 1 || (p->two_suit && n == 0)) continue;
            out |= (uint32_t)(info[g] & (p->size[g] == 9 ? 0x1FF : 0x7)) << p->start[g];
        }
    int total = 0, pairs = 0;
    for (Py_ssize_t k = 0; k < width; k++) {
        total += c[k];
        pairs += c[k] >> 1;
    }
    if (total == 13 && pairs == 6) { /* seven pairs: six pairs and an odd tile (one or three: never four) */
        for (Py_ssize_t k = 0; k < width; k++)
            if (c[k] & 1) {
                out |= (uint32_t)1 << k;
                break;
            }
    }
    return out;
}

static uint64_t spread_bits[256]; /* eight bits as eight bytes of 0 or 1 (in memory order) */

/* suit_wait and honour_wait, on the first batch of waits */
static void fill_takes(void);

static int ensure_wait_tables(void) {
    if (suit_wait != NULL) return 0;
    fill_takes();
    for (int m = 0; m < 256; m++) {
        uint8_t b[8];
        for (int k = 0; k < 8; k++) b[k] = (uint8_t)(m >> k & 1);
        memcpy(&spread_bits[m], b, 8);
    }
    uint16_t *sw = PyMem_Calloc(SUIT_VECTORS, sizeof(uint16_t));
    if (sw == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int c[9] = {0}, total = 0;
    for (int key = 0; key < 1953125; key++) { /* every vector of at most 14 tiles, as setup_tables */
        if (total <= 14) {
            unsigned bits = 0;
            int r = total % 3;
            if (r != 1 && rows[suit_class[suit_rank(c)]][(total / 3) * 2 + (r == 2)] == 0) bits |= COMPLETE_BIT;
            int after = total + 1, idx = (after / 3) * 2 + (after % 3 == 2);
            for (int i = 0; total <= 13 && i < 9; i++) {
                if (c[i] == 4) continue;
                c[i]++;
                if (rows[suit_class[suit_rank(c)]][idx] == 0) bits |= 1u << i;
                c[i]--;
            }
            sw[suit_rank(c)] = (uint16_t)bits;
        }
        for (int i = 8; i >= 0; i--) {
            if (c[i] < 4) {
                c[i]++;
                total++;
                break;
            }
            total -= c[i];
            c[i] = 0;
        }
    }
    static const int pows[3] = {25, 5, 1};
    for (int key = 0; key < 125; key++) {
        int h[3] = {key / 25, key / 5 % 5, key % 5}, n = h[0] + h[1] + h[2], r = n % 3;
        unsigned bits = r != 1 && rows[honour_class[key]][(n / 3) * 2 + (r == 2)] == 0 ? COMPLETE_BIT : 0;
        int after = n + 1, idx = (after / 3) * 2 + (after % 3 == 2);
        for (int i = 0; i < 3; i++)
            if (h[i] < 4 && rows[honour_class[key + pows[i]]][idx] == 0) bits |= 1u << i;
        honour_wait[key] = (uint16_t)bits;
    }
    suit_wait = sw;
    return 0;
}

/* The common layouts in batch rows, laid out for the compiler: three groups, the first two
 * suits, the third a suit or the honours (every variant this project ships); the per-row work
 * has no loop over groups and no test of the variant. ``third_suit`` and ``triple`` are constants
 * at each call, so each layout gets its own code. A chunk of rows is done in two passes: the
 * ranks first, then the reads they index (the suits' tables are larger than the first-level
 * cache), so that the reads of many rows are under way at once. */
typedef struct {
    int key[3]; /* a suit's rank, the honours' counts in base 5 */
    int tiles[3], pairs[3];
} RowKeys;

static inline void keys_of_rows(const uint8_t *src, Py_ssize_t count, Py_ssize_t width, const int *start,
                                const int third_suit, RowKeys *out, unsigned *bad, const char *table, int item) {
    unsigned over = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        const uint8_t *row = src + i * width;
        RowKeys *k = &out[i];
        k->key[0] = block_rank(row + start[0], &k->tiles[0], &k->pairs[0]);
        k->key[1] = block_rank(row + start[1], &k->tiles[1], &k->pairs[1]);
        const uint8_t *x = row + start[2];
        if (third_suit) {
            k->key[2] = block_rank(x, &k->tiles[2], &k->pairs[2]);
        } else {
            k->key[2] = (x[0] * 5 + x[1]) * 5 + x[2];
            k->tiles[2] = x[0] + x[1] + x[2];
            k->pairs[2] = (x[0] >> 1) + (x[1] >> 1) + (x[2] >> 1);
        }
        over |= (unsigned)((k->tiles[0] > 14) | (k->tiles[1] > 14) | (k->tiles[2] > 14));
        __builtin_prefetch(table + (size_t)k->key[0] * item);
        __builtin_prefetch(table + (size_t)k->key[1] * item);
        if (third_suit) __builtin_prefetch(table + (size_t)k->key[2] * item);
    }
    *bad |= over;
}

static const uint8_t remainder3[40] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1,
                                       2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0}; /* n % 3 */

/* by each group's (tiles mod 3) * 2 + complete, in base 6: bit g when the drawn tile may go to
 * group g, as in row_waits: the group's tiles are not a multiple of 3 (so it holds some), every
 * other group is complete, and one pair is in all after the draw */
static uint8_t takes_table[216];

static void fill_takes(void) {
    for (int code = 0; code < 216; code++) {
        int r[3] = {code / 36 / 2, code / 6 % 6 / 2, code % 6 / 2};
        int done[3] = {code / 36 % 2, code / 6 % 2, code % 2};
        int unfinished = 3 - done[0] - done[1] - done[2], pairs_in = (r[0] == 2) + (r[1] == 2) + (r[2] == 2);
        unsigned bits = 0;
        for (int g = 0; g < 3; g++)
            if (r[g] != 0 && (unfinished == 0 || (unfinished == 1 && !done[g])) &&
                pairs_in - (r[g] == 2) + (r[g] == 1) == 1)
                bits |= 1u << g;
        takes_table[code] = (uint8_t)bits;
    }
}

/* seven_pairs_distance without a branch (random hands would mispredict one) */
static inline int seven_pairs_flat(int pairs, int tiles) {
    int need = 7 - pairs;
    int short_of = need - (tiles - 2 * pairs);
    int d = need + (short_of & ~(short_of >> 31));
    return d & ~((need - 1) >> 31);
}

/* batch shanten of `count` rows: a win of two of the groups (each choice a pair: Sichuan), or of
 * all three (``triple``: one read of final3); a group of more than 14 tiles sets *bad */
static inline __attribute__((always_inline)) void shanten_rows3(const uint8_t *src, Py_ssize_t count,
                                                                Py_ssize_t width, const Plan *p,
                                                                const Choices *ch, int sets, int8_t *dst,
                                                                unsigned *bad, const int third_suit,
                                                                const int triple) {
    const int nc = n_classes, seven_off = sets == 4 ? 0 : INF, n_choices = ch->n_choices;
    const uint8_t *fin = final2 + (size_t)sets * nc * nc;
    const uint8_t *fin3 = triple ? final3 + (size_t)sets * n_pair_classes * nc : NULL;
    const uint8_t *third_class = third_suit ? suit_class : honour_class;
    int first[MAX_CHOICES], second[MAX_CHOICES];
    for (int c = 0; c < n_choices; c++) {
        first[c] = ch->group[c][0];
        second[c] = ch->group[c][1];
    }
    RowKeys keys[CHUNK_ROWS];
    keys_of_rows(src, count, width, p->start, third_suit, keys, bad, (const char *)suit_class, 1);
    for (Py_ssize_t i = 0; i < count; i++) {
        const RowKeys *k = &keys[i];
        int cls[3] = {suit_class[k->key[0]], suit_class[k->key[1]], third_class[k->key[2]]};
        int best;
        if (triple) {
            int d = fin3[pair_class[cls[0] * nc + cls[1]] * nc + cls[2]];
            int d7 = seven_pairs_flat(k->pairs[0] + k->pairs[1] + k->pairs[2], k->tiles[0] + k->tiles[1] + k->tiles[2]);
            d7 += seven_off;
            best = d7 < d ? d7 : d;
        } else {
            best = NO_WIN + 1;
            for (int c = 0; c < n_choices; c++) {
                int a = first[c], b = second[c];
                int d = fin[cls[a] * nc + cls[b]];
                int d7 = seven_pairs_flat(k->pairs[a] + k->pairs[b], k->tiles[a] + k->tiles[b]) + seven_off;
                d = d7 < d ? d7 : d;
                best = d < best ? d : best;
            }
        }
        dst[i] = (int8_t)(best - 1);
    }
}

/* The tiles and pairs of a row of 30 (or 27) counts, eight bytes at a time; the last eight read
 * overlap the third, and the two (or five) bytes read twice are taken off. */
static inline void row_totals(const uint8_t *c, Py_ssize_t width, int *tiles, int *pairs) {
    uint64_t w[4];
    Py_ssize_t last = width - 8, twice = 24 - last;
    memcpy(&w[0], c, 8);
    memcpy(&w[1], c + 8, 8);
    memcpy(&w[2], c + 16, 8);
    memcpy(&w[3], c + last, 8);
    const uint64_t ones = 0x0101010101010101ull, low7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t sum = w[0] + w[1] + w[2] + w[3]; /* each byte at most 16 */
    uint64_t half = ((w[0] >> 1) & low7) + ((w[1] >> 1) & low7) + ((w[2] >> 1) & low7) + ((w[3] >> 1) & low7);
    int t = (int)((sum * ones) >> 56), pr = (int)((half * ones) >> 56);
    for (Py_ssize_t k = last; k < last + twice; k++) {
        t -= c[k];
        pr -= c[k] >> 1;
    }
    *tiles = t;
    *pairs = pr;
}

/* batch waits of `count` rows as bools (row_waits for these layouts); a group of more than 13
 * tiles sets *bad */
static inline __attribute__((always_inline)) void waits_rows3(const uint8_t *src, Py_ssize_t count, Py_ssize_t width,
                                                              const Plan *p, int v, uint8_t *dst, unsigned *bad,
                                                              const int third_suit) {
    const int two_suit = p->two_suit, void_group = v > 0 ? p->suit_group[v - 1] : -1;
    const int s0 = p->start[0], s1 = p->start[1], s2 = p->start[2];
    const unsigned mask2 = third_suit ? 0x1FF : 0x7;
    const uint16_t *third_wait = third_suit ? suit_wait : honour_wait;
    unsigned over = 0;
    RowKeys keys[CHUNK_ROWS];
    keys_of_rows(src, count, width, p->start, third_suit, keys, bad, (const char *)suit_wait, 2);
    for (Py_ssize_t i = 0; i < count; i++) {
        const uint8_t *row = src + i * width;
        const RowKeys *k = &keys[i];
        const int *n = k->tiles;
        unsigned info[3] = {suit_wait[k->key[0]], suit_wait[k->key[1]], third_wait[k->key[2]]};
        over |= (unsigned)((n[0] > 13) | (n[1] > 13) | (n[2] > 13));
        uint32_t out = 0;
        /* the two-suit rule: tiles of three suits, or of the void suit, never win */
        int present = (n[0] > 0) + (n[1] > 0) + (third_suit && n[2] > 0);
        int can_win = !two_suit || (present <= 2 && (void_group < 0 || n[void_group] == 0));
        /* which groups can take the drawn tile, from each group's tiles mod 3 and completeness
         * (see fill_takes): one read, no branch (ready hands go every way) */
        int code = ((remainder3[n[0]] * 2 + (int)(info[0] >> 9 & 1)) * 6 + remainder3[n[1]] * 2 +
                    (int)(info[1] >> 9 & 1)) * 6 + remainder3[n[2]] * 2 + (int)(info[2] >> 9 & 1);
        unsigned takes = takes_table[code] & (0u - (unsigned)can_win);
        out |= (info[0] & 0x1FF & (0u - (takes & 1))) << s0;
        out |= (info[1] & 0x1FF & (0u - (takes >> 1 & 1))) << s1;
        out |= (info[2] & mask2 & (0u - (takes >> 2 & 1))) << s2;
        int total, pairs;
        row_totals(row, width, &total, &pairs);
        if (total == 13 && pairs == 6 && can_win) { /* seven pairs: six pairs and an odd tile (never a fourth) */
            for (Py_ssize_t k = 0; k < width; k++)
                if (row[k] & 1) {
                    out |= (uint32_t)1 << k;
                    break;
                }
        }
        /* the mask as bools, eight at a time, the last eight overlapping the third */
        uint8_t *d = dst + i * width;
        memcpy(d, &spread_bits[out & 255], 8);
        memcpy(d + 8, &spread_bits[(out >> 8) & 255], 8);
        memcpy(d + 16, &spread_bits[(out >> 16) & 255], 8);
        if (width == 30) memcpy(d + 22, &spread_bits[(out >> 22) & 255], 8);
        else memcpy(d + 19, &spread_bits[(out >> 19) & 255], 8);
    }
    *bad |= over;
}



/* numpy arrays without numpy's headers (the extension builds without numpy): the array object's
 * leading fields and PyArray_New from numpy's C-API table, both fixed by numpy's ABI since 1.7.
 * configure_batch checks them on a probe array against the buffer protocol and leaves them
 * unused when anything differs; the buffer protocol then does the same work, slower. */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
    int flags;
} ArrayFields;
#define ARRAY_C_CONTIGUOUS 0x0001
#define ARRAY_WRITEABLE 0x0400
#define TYPE_BOOL 0
#define TYPE_BYTE 1
typedef PyObject *(*ArrayNew)(PyTypeObject *, int, const Py_ssize_t *, int, const Py_ssize_t *, void *, int, int,
                              PyObject *);
static PyTypeObject *array_type; /* NULL: the fields are not read */
static ArrayNew array_new;
static PyObject *dtype_uint8;

#define RECYCLE_SLOTS 4
#define RECYCLE_MAX_ROWS 64
static PyObject *recycled[2][RECYCLE_SLOTS]; /* [bool result][slot]: small result arrays kept for reuse */
static int recycle_next[2];

/* a batch's input or output: rows of `width` integers of `itemsize` bytes */
typedef struct {
    char *buf;
    Py_ssize_t n, width;
    int itemsize, is_signed;
    int held; /* view holds a buffer to release */
    Py_buffer view;
} Rows;

static void rows_release(Rows *r) {
    if (r->held) PyBuffer_Release(&r->view);
    r->held = 0;
}

/* Rows first .. first + count - 1 as bytes: rows of 1-byte counts are read in place; wider ones
 * are copied into `scratch`, a count outside 0-4 becoming 255 (so that row_bad sees it). */
static const uint8_t *rows_as_bytes(const Rows *r, Py_ssize_t first, Py_ssize_t count, uint8_t *scratch) {
    Py_ssize_t items = count * r->width;
    const char *at = r->buf + first * r->width * r->itemsize;
    if (r->itemsize == 1) return (const uint8_t *)at;
    for (Py_ssize_t k = 0; k < items; k++) {
        long long x;
        switch (r->itemsize) {
        case 2: x = r->is_signed ? (long long)((const int16_t *)at)[k] : (long long)((const uint16_t *)at)[k]; break;
        case 4: x = r->is_signed ? (long long)((const int32_t *)at)[k] : (long long)((const uint32_t *)at)[k]; break;
        default: x = ((const int64_t *)at)[k]; break;
        }
        scratch[k] = (unsigned long long)x > 4 ? 255 : (uint8_t)x;
    }
    return scratch;
}

/* (counts, variant, void=None, <extra>=<default>, out=None) by position or name */
static int parse_batch_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, const char *extra,
                            PyObject **a) {
    static const char *fixed[3] = {"counts", "variant", "void"};
    if (nargs > (extra ? 5 : 4)) return -1;
    for (Py_ssize_t i = 0; i < nargs; i++) a[extra || i < 3 ? i : 4] = args[i];
    Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        int at = -1;
        for (int j = 0; j < 3; j++)
            if (PyUnicode_CompareWithASCIIString(name, fixed[j]) == 0) at = j;
        if (extra && PyUnicode_CompareWithASCIIString(name, extra) == 0) at = 3;
        if (PyUnicode_CompareWithASCIIString(name, "out") == 0) at = 4;
        if (at < 0 || (at < 4 && at < nargs) || (at == 4 && nargs == (extra ? 5 : 4))) return -1;
        a[at] = args[nargs + i];
    }
    return a[0] && a[1] ? 0 : -1;
}

/* The counts as a C-contiguous (N, 27 or 30) array of integers, the plan and void: 0, or -1
 * when the Python function must answer (nothing is then held). */
static int batch_input(PyObject *counts, PyObject *variant, PyObject *void_, Rows *r, Plan *plan, int *v) {
    const Plan *found = disabled ? NULL : plan_for(variant);
    *v = void_index(void_);
    if (found == NULL || *v < 0 || found->n_choices[*v] < 0) return -1;
    *plan = *found;
    r->held = 0;
    const ArrayFields *f = (const ArrayFields *)counts;
    if (array_type && Py_TYPE(counts) == array_type && f->nd == 2 && (f->flags & ARRAY_C_CONTIGUOUS) &&
        (f->descr == dtype_int8 || f->descr == dtype_uint8)) {
        r->buf = f->data;
        r->n = f->dimensions[0];
        r->width = f->dimensions[1];
        r->itemsize = 1;
        r->is_signed = f->descr == dtype_int8;
    } else {
        if (PyObject_GetBuffer(counts, &r->view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
            PyErr_Clear();
            return -1;
        }
        r->held = 1;
        const Py_buffer *b = &r->view;
        const char *fmt = b->format ? b->format + (b->format[0] == '<' || b->format[0] == '=' || b->format[0] == '@') : "";
        if (b->ndim != 2 || !fmt[0] || !strchr("bBhHiIlLqQ", fmt[0]) || fmt[1] ||
            !(b->itemsize == 1 || b->itemsize == 2 || b->itemsize == 4 || b->itemsize == 8)) {
            rows_release(r);
            return -1;
        }
        r->buf = b->buf;
        r->n = b->shape[0];
        r->width = b->shape[1];
        r->itemsize = (int)b->itemsize;
        r->is_signed = strchr("bhilq", fmt[0]) != NULL;
    }
    int ok = r->width == 30 || r->width == 27;
    for (int g = 0; ok && g < plan->n_groups; g++) ok = plan->start[g] + plan->size[g] <= r->width;
    if (!ok) rows_release(r);
    return ok ? 0 : -1;
}

/* A new array of n (width 0) or (n, width) bytes of the numpy dtype given, or the caller's
 * `out` when it is one; its data in r. */
static PyObject *batch_output(PyObject *out, Py_ssize_t n, Py_ssize_t width, PyObject *dtype, Rows *r) {
    PyObject *arr;
    int bool_out = dtype == dtype_bool;
    r->held = 0;
    if (out == NULL || out == Py_None) {
        Py_ssize_t shape[2] = {n, width};
        if (array_type) {
            /* small results come back from a few kept arrays that nothing else holds any more (a
             * reference count of one: no name, view or buffer of them is left), so a loop over
             * small batches does not pay an allocation per call */
            PyObject **keep = recycled[bool_out];
            int small = n <= RECYCLE_MAX_ROWS;
            for (int i = 0; small && i < RECYCLE_SLOTS; i++) {
                const ArrayFields *f = (const ArrayFields *)keep[i];
                if (f && Py_REFCNT(keep[i]) == 1 && f->nd == (width ? 2 : 1) && f->dimensions[0] == n &&
                    (!width || f->dimensions[1] == width) && (f->flags & ARRAY_WRITEABLE)) {
                    Py_INCREF(keep[i]);
                    r->buf = f->data;
                    return keep[i];
                }
            }
            arr = array_new(array_type, width ? 2 : 1, shape, bool_out ? TYPE_BOOL : TYPE_BYTE, NULL, NULL, 0, 0, NULL);
            if (arr == NULL) return NULL;
            if (small) { /* kept in turn, in place of the oldest */
                int at = recycle_next[bool_out];
                recycle_next[bool_out] = (at + 1) % RECYCLE_SLOTS;
                Py_INCREF(arr);
                Py_XSETREF(keep[at], arr);
            }
            r->buf = ((ArrayFields *)arr)->data;
            return arr;
        }
        PyObject *dims = width ? Py_BuildValue("(nn)", n, width) : PyLong_FromSsize_t(n);
        if (dims == NULL) return NULL;
        PyObject *call[2] = {dims, dtype};
        arr = PyObject_Vectorcall(np_empty, call, 2, NULL);
        Py_DECREF(dims);
        if (arr == NULL) return NULL;
    } else {
        Py_INCREF(out);
        arr = out;
        const ArrayFields *f = (const ArrayFields *)out;
        if (array_type && Py_TYPE(out) == array_type && f->nd == (width ? 2 : 1) &&
            (f->flags & (ARRAY_C_CONTIGUOUS | ARRAY_WRITEABLE)) == (ARRAY_C_CONTIGUOUS | ARRAY_WRITEABLE) &&
            f->descr == dtype && f->dimensions[0] == n && (!width || f->dimensions[1] == width)) {
            r->buf = f->data;
            return arr;
        }
    }
    if (PyObject_GetBuffer(arr, &r->view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    r->held = 1;
    const Py_buffer *b = &r->view;
    const char *fmt = b->format ? b->format : "";
    int ok = b->itemsize == 1 && (width ? b->ndim == 2 && b->shape[0] == n && b->shape[1] == width
                                        : b->ndim == 1 && b->shape[0] == n) &&
             (bool_out ? fmt[0] == '?' : fmt[0] == 'b');
    if (!ok) {
        rows_release(r);
        Py_DECREF(arr);
        PyErr_Format(PyExc_ValueError, "out must be a C-contiguous %s array of shape (%zd%s)", bool_out ? "bool" : "int8",
                     n, width == 30 ? ", 30" : width ? ", 27" : ",");
        return NULL;
    }
    r->buf = b->buf;
    return arr;
}

static int batch_ready(void) {
    if (ensure_tables() < 0) return -1;
    if (np_empty == NULL || batch_shanten_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "majiang.core._speedups batch functions are used before batch.py configured them");
        return -1;
    }
    return 0;
}

/* batch.batch_shanten(counts, variant, void=None, sets=4, out=None) */
static PyObject *py_batch_shanten(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)self;
    if (batch_ready() < 0) return NULL;
    PyObject *a[5] = {NULL, NULL, Py_None, NULL, NULL};
    Rows in, res;
    Plan plan;
    int v, sets = 4;
    if (parse_batch_args(args, nargs, kwnames, "sets", a) < 0) goto python;
    if (a[3]) {
        if (!PyLong_CheckExact(a[3])) goto python;
        sets = (int)PyLong_AsLong(a[3]);
        if (sets < 0 || sets > 4) {
            PyErr_Clear();
            goto python;
        }
    }
    if (batch_input(a[0], a[1], a[2], &in, &plan, &v) < 0) goto python;
    for (int c = 0; c < plan.n_choices[v]; c++) /* the numpy path refuses a single group */
        if (!(plan.choice[v][c] & (plan.choice[v][c] - 1))) {
            rows_release(&in);
            goto python;
        }
    Py_ssize_t n = in.n, width = in.width;
    PyObject *arr = batch_output(a[4], n, 0, dtype_int8, &res);
    if (arr == NULL) {
        rows_release(&in);
        return NULL;
    }
    Choices ch;
    choices_of(&plan, v, &ch);
    const uint8_t *fin = final2 + (size_t)sets * n_classes * n_classes;
    int8_t *dst = (int8_t *)res.buf;
    unsigned bad = 0;
    uint8_t scratch[CHUNK_ROWS * 30];
    /* the layout's own loop when it is one of the common ones (see shanten_rows3) */
    int third = plan.n_groups == 3 && plan.size[0] == 9 && plan.size[1] == 9 ? plan.size[2] : 0;
    int pairs_only = 1;
    for (int c = 0; c < ch.n_choices; c++) pairs_only &= ch.size[c] == 2;
    int triple = ch.n_choices == 1 && ch.size[0] == 3 && n_pair_classes > 0;
    int layout = !third ? 0 : triple ? (third == 9 ? 1 : 2) : pairs_only ? (third == 9 ? 3 : 4) : 0;
    for (Py_ssize_t lo = 0; lo < n && !bad; lo += CHUNK_ROWS) {
        Py_ssize_t count = n - lo < CHUNK_ROWS ? n - lo : CHUNK_ROWS;
        const uint8_t *src = rows_as_bytes(&in, lo, count, scratch);
        bad |= row_bad(src, count * width); /* checked before any table is indexed by a count */
        if (bad) break;
        int8_t *at = dst + lo;
        switch (layout) {
        case 1: shanten_rows3(src, count, width, &plan, &ch, sets, at, &bad, 1, 1); break;
        case 2: shanten_rows3(src, count, width, &plan, &ch, sets, at, &bad, 0, 1); break;
        case 3: shanten_rows3(src, count, width, &plan, &ch, sets, at, &bad, 1, 0); break;
        case 4: shanten_rows3(src, count, width, &plan, &ch, sets, at, &bad, 0, 0); break;
        default:
            for (Py_ssize_t i = 0; i < count && !bad; i++)
                at[i] = (int8_t)row_shanten(&plan, &ch, src + i * width, sets, fin, &bad);
        }
    }
    rows_release(&in);
    rows_release(&res);
    if (!bad) return arr;
    Py_DECREF(arr); /* a count over 4, a group of more than 14 tiles: the Python path says what it says */
python:
    forwarded++;
    return PyObject_Vectorcall(batch_shanten_fallback, args, (size_t)nargs, kwnames);
}

/* batch.batch_waits(counts, variant, void=None, out=None) */
static PyObject *py_batch_waits(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)self;
    if (batch_ready() < 0) return NULL;
    PyObject *a[5] = {NULL, NULL, Py_None, NULL, NULL};
    Rows in, res;
    Plan plan;
    int v;
    if (parse_batch_args(args, nargs, kwnames, NULL, a) < 0) goto python;
    if (batch_input(a[0], a[1], a[2], &in, &plan, &v) < 0) goto python;
    if (ensure_wait_tables() < 0) {
        rows_release(&in);
        return NULL;
    }
    Py_ssize_t n = in.n, width = in.width;
    PyObject *arr = batch_output(a[4], n, width, dtype_bool, &res);
    if (arr == NULL) {
        rows_release(&in);
        return NULL;
    }
    uint8_t *dst = (uint8_t *)res.buf;
    unsigned bad = 0;
    uint8_t scratch[CHUNK_ROWS * 30];
    int third = plan.n_groups == 3 && plan.size[0] == 9 && plan.size[1] == 9 ? plan.size[2] : 0;
    for (Py_ssize_t lo = 0; lo < n && !bad; lo += CHUNK_ROWS) {
        Py_ssize_t count = n - lo < CHUNK_ROWS ? n - lo : CHUNK_ROWS;
        const uint8_t *src = rows_as_bytes(&in, lo, count, scratch);
        bad |= row_bad(src, count * width);
        if (bad) break;
        if (third) { /* the layout's own loop (see waits_rows3) */
            if (third == 9) waits_rows3(src, count, width, &plan, v, dst + lo * width, &bad, 1);
            else waits_rows3(src, count, width, &plan, v, dst + lo * width, &bad, 0);
            continue;
        }
        for (Py_ssize_t i = 0; i < count && !bad; i++) {
            uint32_t m = row_waits(&plan, src + i * width, width, v, &bad);
            uint8_t bytes[32]; /* the mask as bools, eight at a time */
            for (int b = 0; b < 4; b++) memcpy(bytes + 8 * b, &spread_bits[(m >> (8 * b)) & 255], 8);
            if (width == 30) memcpy(dst + (lo + i) * 30, bytes, 30);
            else memcpy(dst + (lo + i) * 27, bytes, 27);
        }
    }
    rows_release(&in);
    rows_release(&res);
    if (!bad) return arr;
    Py_DECREF(arr);
python:
    forwarded++;
    return PyObject_Vectorcall(batch_waits_fallback, args, (size_t)nargs, kwnames);
}

/* The array fields and PyArray_New, checked on `probe` (a fresh (3, 30) int8 array) against what
 * the buffer protocol says of it; 1 when they may be used. */
static int check_array_abi(PyObject *capsule, PyObject *probe) {
    void **api = PyCapsule_IsValid(capsule, NULL) ? PyCapsule_GetPointer(capsule, NULL) : NULL;
    if (api == NULL) return 0;
    unsigned (*abi_version)(void) = (unsigned (*)(void))api[0];
    unsigned version = abi_version();
    if (version != 0x01000009u && version != 0x02000000u) return 0;
    PyTypeObject *type = (PyTypeObject *)api[2];
    if (Py_TYPE(probe) != type) return 0;
    Py_buffer b;
    if (PyObject_GetBuffer(probe, &b, PyBUF_STRIDES | PyBUF_FORMAT) < 0) return 0;
    const ArrayFields *f = (const ArrayFields *)probe;
    int ok = b.ndim == 2 && f->nd == 2 && f->data == b.buf && f->dimensions[0] == 3 && f->dimensions[1] == 30 &&
             b.shape[0] == 3 && b.shape[1] == 30 && f->strides[0] == 30 && f->strides[1] == 1 &&
             (f->flags & (ARRAY_C_CONTIGUOUS | ARRAY_WRITEABLE)) == (ARRAY_C_CONTIGUOUS | ARRAY_WRITEABLE) &&
             f->descr == dtype_int8;
    PyBuffer_Release(&b);
    if (!ok) return 0;
    ArrayNew make = (ArrayNew)api[93];
    Py_ssize_t shape[2] = {2, 27};
    for (int t = 0; ok && t < 2; t++) {
        PyObject *arr = make(type, 2, shape, t == 0 ? TYPE_BYTE : TYPE_BOOL, NULL, NULL, 0, 0, NULL);
        if (arr == NULL) {
            PyErr_Clear();
            return 0;
        }
        f = (const ArrayFields *)arr;
        ok = Py_TYPE(arr) == type && f->nd == 2 && f->dimensions[0] == 2 && f->dimensions[1] == 27 &&
             f->descr == (t == 0 ? dtype_int8 : dtype_bool) && (f->flags & ARRAY_C_CONTIGUOUS) &&
             PyObject_GetBuffer(arr, &b, PyBUF_STRIDES | PyBUF_FORMAT) == 0;
        if (ok) {
            ok = b.buf == f->data && b.itemsize == 1 && b.format && b.format[0] == (t == 0 ? 'b' : '?');
            PyBuffer_Release(&b);
        }
        PyErr_Clear();
        Py_DECREF(arr);
    }
    if (ok) {
        array_type = type;
        array_new = make;
    }
    return ok;
}

static PyObject *py_configure_batch(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *s, *w, *e, *i8, *u8, *b, *capsule, *probe;
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &s, &w, &e, &i8, &u8, &b, &capsule, &probe)) return NULL;
    PyObject **slots[6] = {&batch_shanten_fallback, &batch_waits_fallback, &np_empty, &dtype_int8, &dtype_uint8,
                           &dtype_bool};
    PyObject *given[6] = {s, w, e, i8, u8, b};
    for (int i = 0; i < 6; i++) {
        Py_INCREF(given[i]);
        Py_XSETREF(*slots[i], given[i]);
    }
    array_type = NULL;
    return PyBool_FromLong(check_array_abi(capsule, probe));
}


/* ------------------------------------------------------------------------------------------ */
/* A call into the native engine library (majiang.native) without ctypes, whose argument
 * conversion costs about ten times the call. For majiang.native only; the GIL stays held, as the
 * call is about a microsecond. */
typedef int64_t (*StepObs)(void *, int64_t, int64_t, void *, void *, void *, int64_t);

/* stepper(address of mj_step_obs, game, mask, rewards, obs, kind) and encoder(address of
 * mj_encode_obs, game, obs, kind), every pointer an address as majiang.native holds them: callable
 * objects, (seat, action) -> code calling mj_step_obs and (seat) -> code calling mj_encode_obs, with
 * the rest bound once per hand. Cheaper per call than functools.partial over an eight-argument
 * function or ctypes: no argument stack allocated and no bound integer converted again per call. */
typedef int64_t (*EncodeObs)(void *, int64_t, void *, int64_t);

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    void *fn, *game, *mask, *rewards, *obs;
    int64_t kind;
} Bound;

/* args[0..n) as integers into v; -1 and an exception if one is not */
static int bound_ints(PyObject *const *args, Py_ssize_t nargs, size_t nargsf, PyObject *kwnames, long long *v) {
    if (PyVectorcall_NARGS(nargsf) != nargs || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_Format(PyExc_TypeError, "takes %zd arguments", nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        v[i] = PyLong_AsLongLong(args[i]);
        if (v[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

static PyObject *stepper_call(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Bound *b = (Bound *)self;
    long long v[2]; /* seat, action */
    if (bound_ints(args, 2, nargsf, kwnames, v) < 0) return NULL;
    return PyLong_FromLongLong(((StepObs)b->fn)(b->game, v[0], v[1], b->mask, b->rewards, b->obs, b->kind));
}

static PyObject *encoder_call(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Bound *b = (Bound *)self;
    long long seat;
    if (bound_ints(args, 1, nargsf, kwnames, &seat) < 0) return NULL;
    return PyLong_FromLongLong(((EncodeObs)b->fn)(b->game, seat, b->obs, b->kind));
}

static PyTypeObject BoundType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "majiang.core._speedups.Bound",
    .tp_basicsize = sizeof(Bound),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Bound, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_doc = "A native library call with one hand's buffers bound (see stepper and encoder).",
};

/* a Bound calling the function at v[0] on the game at v[1] */
static PyObject *bound_new(const long long *v, vectorcallfunc call, void *mask, void *rewards, void *obs,
                           int64_t kind) {
    if (v[0] == 0 || v[1] == 0) {
        PyErr_SetString(PyExc_ValueError, "no function or game");
        return NULL;
    }
    Bound *b = PyObject_New(Bound, &BoundType);
    if (b == NULL) return NULL;
    b->vectorcall = call;
    b->fn = (void *)(uintptr_t)v[0];
    b->game = (void *)(uintptr_t)v[1];
    b->mask = mask;
    b->rewards = rewards;
    b->obs = obs;
    b->kind = kind;
    return (PyObject *)b;
}

static PyObject *py_stepper(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    long long v[6];
    if (bound_ints(args, 6, (size_t)nargs, NULL, v) < 0) return NULL;
    return bound_new(v, stepper_call, (void *)(uintptr_t)v[2], (void *)(uintptr_t)v[3], (void *)(uintptr_t)v[4], v[5]);
}

static PyObject *py_encoder(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    long long v[4];
    if (bound_ints(args, 4, (size_t)nargs, NULL, v) < 0) return NULL;
    return bound_new(v, encoder_call, NULL, NULL, (void *)(uintptr_t)v[2], v[3]);
}

/* batch_step_at(address of mj_batch_step_deal, its 13 arguments as integers): a batch step
 * without ctypes' conversion of 13 arguments (a few microseconds a step). The GIL is released
 * during the call, as ctypes does: a batch can take milliseconds. */
typedef int64_t (*BatchStepDeal)(void *, size_t, void *, void *, void *, int64_t, void *, void *, size_t, void *, size_t,
                                 void *, void *);

static PyObject *py_batch_step_at(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 14) {
        PyErr_SetString(PyExc_TypeError, "batch_step_at takes 14 arguments");
        return NULL;
    }
    long long v[14];
    for (int i = 0; i < 14; i++) {
        v[i] = PyLong_AsLongLong(args[i]);
        if (v[i] == -1 && PyErr_Occurred()) return NULL;
    }
    if (v[0] == 0 || v[1] == 0) {
        PyErr_SetString(PyExc_ValueError, "batch_step_at: no function or games");
        return NULL;
    }
    BatchStepDeal fn = (BatchStepDeal)(uintptr_t)v[0];
    int64_t code;
    Py_BEGIN_ALLOW_THREADS
    code = fn((void *)(uintptr_t)v[1], (size_t)v[2], (void *)(uintptr_t)v[3], (void *)(uintptr_t)v[4],
              (void *)(uintptr_t)v[5], v[6], (void *)(uintptr_t)v[7], (void *)(uintptr_t)v[8], (size_t)v[9],
              (void *)(uintptr_t)v[10], (size_t)v[11], (void *)(uintptr_t)v[12], (void *)(uintptr_t)v[13]);
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(code);
}

static PyObject *setup_tables(PyObject *args) {
    /* (suit: buffer of uint16, honour: uint16, rows: bytes (classes x 10), resolver, all_tiles,
     *  pong_kind): the tables, once, from analysis.py's loader */
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
    if (!ok) {
        PyBuffer_Release(&sb);
        PyBuffer_Release(&hb);
        PyErr_SetString(PyExc_ValueError, "tables of the wrong size");
        return NULL;
    }
    int nc = (int)(rl / ROW);
    uint8_t *sc = PyMem_Malloc(SUIT_VECTORS);
    uint8_t *pr = PyMem_Malloc((size_t)nc * nc * ROW);
    uint8_t *f2 = PyMem_Malloc((size_t)5 * nc * nc);
    if (sc == NULL || pr == NULL || f2 == NULL) {
        PyMem_Free(sc);
        PyMem_Free(pr);
        PyMem_Free(f2);
        PyBuffer_Release(&sb);
        PyBuffer_Release(&hb);
        return PyErr_NoMemory();
    }
    /* every vector of at most 14 tiles, by rank; the pair counts (high byte) must be what this
     * file computes from the counts */
    fill_rank_steps();
    fill_rank_blocks();
    int c[9] = {0}, filled = 0, total = 0;
    for (int key = 0; key < 1953125; key++) { /* c counts in base 5 alongside key, last kind lowest */
        if (total <= 14) {
            int pairs = 0, block_tiles, block_pairs;
            uint8_t bytes[9];
            for (int i = 0; i < 9; i++) {
                pairs += c[i] >> 1;
                bytes[i] = (uint8_t)c[i];
            }
            if ((s[key] & 255) >= nc || s[key] >> 8 != pairs) ok = 0;
            int rank = suit_rank(c);
            /* the batch rows' rank must be this one, on every vector */
            if (block_rank(bytes, &block_tiles, &block_pairs) != rank || block_tiles != total || block_pairs != pairs)
                ok = 0;
            sc[rank] = (uint8_t)(s[key] & 255);
            filled++;
        }
        for (int i = 8; i >= 0; i--) {
            if (c[i] < 4) {
                c[i]++;
                total++;
                break;
            }
            total -= c[i];
            c[i] = 0;
        }
    }
    for (int key = 0; key < 125; key++) {
        int pairs = (key / 25) / 2 + (key / 5 % 5) / 2 + (key % 5) / 2;
        if ((hn[key] & 255) >= nc || hn[key] >> 8 != pairs) ok = 0;
        honour_class[key] = (uint8_t)(hn[key] & 255);
    }
    PyBuffer_Release(&sb);
    PyBuffer_Release(&hb);
    if (!ok || filled != SUIT_VECTORS) {
        PyMem_Free(sc);
        PyMem_Free(pr);
        PyMem_Free(f2);
        PyErr_SetString(PyExc_ValueError, "the tables do not fit this extension");
        return NULL;
    }
    memcpy(rows, PyBytes_AS_STRING(row_bytes), (size_t)rl);
    for (int a = 0; a < nc; a++)
        for (int b = 0; b < nc; b++) min_plus(rows[a], rows[b], pr + ((size_t)a * nc + b) * ROW);
    for (int sets = 0; sets < 5; sets++)
        for (int a = 0; a < nc; a++)
            for (int b = 0; b < nc; b++)
                f2[((size_t)sets * nc + a) * nc + b] = (uint8_t)final_two(rows[a], rows[b], sets);
    PyMem_Free(final2);
    final2 = f2;
    fill_pair_classes(pr, nc);
    PyMem_Free(suit_wait); /* made again from the new tables when a batch of waits asks */
    suit_wait = NULL;
    PyMem_Free(pair_rows);
    pair_rows = pr;
    PyMem_Free(suit_class);
    suit_class = sc;
    n_classes = nc;
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

/* The tables load on the first call, not at import (``import majiang`` stays light). */
static int ensure_tables(void) {
    if (pair_rows != NULL || disabled) return 0;
    if (loader == NULL || shanten_fallback == NULL || waits_fallback == NULL || shanten_counts_fallback == NULL ||
        waits_counts_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "majiang.core._speedups is used before analysis.py configured it");
        return -1;
    }
    PyObject *spec = PyObject_CallNoArgs(loader);
    PyObject *done = spec && PyTuple_Check(spec) ? setup_tables(spec) : NULL;
    Py_XDECREF(spec);
    Py_XDECREF(done);
    if (done == NULL) { /* the Python path answers from now on (and raises, if the tables are broken) */
        PyErr_Clear();
        disabled = 1;
    }
    return 0;
}

static PyObject *py_configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *s, *w, *l, *sc, *wc;
    if (!PyArg_ParseTuple(args, "OOOOO", &s, &w, &l, &sc, &wc)) return NULL;
    Py_INCREF(sc);
    Py_XSETREF(shanten_counts_fallback, sc);
    Py_INCREF(wc);
    Py_XSETREF(waits_counts_fallback, wc);
    Py_INCREF(s);
    Py_XSETREF(shanten_fallback, s);
    Py_INCREF(w);
    Py_XSETREF(waits_fallback, w);
    Py_INCREF(l);
    Py_XSETREF(loader, l);
    Py_RETURN_NONE;
}

static PyObject *py_forwarded(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyLong_FromUnsignedLongLong(forwarded);
}

static PyMethodDef methods[] = {
    {"configure", py_configure, METH_VARARGS,
     "configure(shanten, waits, loader, shanten_counts, waits_counts): the Python functions that answer what "
     "C does not, the "
     "table loader called on the first call (analysis.py does this at import)."},
    {"shanten", (PyCFunction)(void (*)(void))py_shanten, METH_FASTCALL | METH_KEYWORDS,
     "shanten($module, /, hand, variant, void=None)\n--\n\n"
     "Distance to ready of a 3n+1 or 3n+2 hand (best of standard and seven pairs); -1 is a win.\n\n"
     "Sichuan hands must drop one suit (the declared void, or whichever is cheapest); a hand whose\n"
     "melds already hold three suits, or the void suit, can never win and gets NO_WIN (98).\n"
     "Computed in C; bad input goes to the Python function (analysis._shanten_python), which raises.\n\n"
     ">>> from majiang import Hand, shanten\n"
     ">>> shanten(Hand.parse(\"123p456p789p11s34s\"), \"kawuxing\")\n"
     "0\n"},
    {"waits", (PyCFunction)(void (*)(void))py_waits, METH_FASTCALL | METH_KEYWORDS,
     "waits($module, /, hand, variant, void=None)\n--\n\n"
     "Tiles that complete a 3n+1 hand, in tile order, counting only tiles that can still exist\n"
     "(not all four already in the player's own hand and melds).\n"
     "Computed in C; bad input goes to the Python function (analysis._waits_python), which raises.\n\n"
     ">>> from majiang import Hand, waits\n"
     ">>> waits(Hand.parse(\"123p456p789p11s34s\"), \"kawuxing\")\n"
     "[2s, 5s]\n"},
    {"shanten_counts", (PyCFunction)(void (*)(void))py_shanten_counts, METH_FASTCALL | METH_KEYWORDS,
     "shanten_counts($module, /, counts, variant, sets=4, void=None, caps=None, seven_pairs=None, meld_suits='')"
     "\n--\n\nanalysis.shanten_counts in C (count lists or tuples); anything else goes to the Python function."},
    {"waits_counts", (PyCFunction)(void (*)(void))py_waits_counts, METH_FASTCALL | METH_KEYWORDS,
     "waits_counts($module, /, counts, totals, variant, void=None, closed=True)\n--\n\n"
     "analysis.waits_counts in C (count lists or tuples, a Variant); anything else goes to the Python function."},
    {"shanten_rows", py_shanten_rows, METH_VARARGS,
     "shanten_rows(counts, out, variant, void, sets): batch_shanten of closed hands into out; False: not done."},
    {"batch_shanten", (PyCFunction)(void (*)(void))py_batch_shanten, METH_FASTCALL | METH_KEYWORDS,
     "batch_shanten($module, /, counts, variant, void=None, sets=4, out=None)\n--\n\n"
     "batch.batch_shanten in one call into C (an (N, 30) or (N, 27) integer array, C-contiguous);\n"
     "anything else goes to the Python function."},
    {"batch_waits", (PyCFunction)(void (*)(void))py_batch_waits, METH_FASTCALL | METH_KEYWORDS,
     "batch_waits($module, /, counts, variant, void=None, out=None)\n--\n\n"
     "batch.batch_waits in one call into C; anything else goes to the Python function."},
    {"configure_batch", py_configure_batch, METH_VARARGS,
     "configure_batch(batch_shanten, batch_waits, numpy.empty, int8, uint8, bool, numpy's C-API capsule, a (3, 30) "
     "int8 array): the Python functions that answer what C does not, and how to read and make arrays (batch.py does "
     "this at import); True when numpy's array fields are read directly."},
    {"batch_step_at", (PyCFunction)(void (*)(void))py_batch_step_at, METH_FASTCALL,
     "batch_step_at(mj_batch_step_deal address, its 13 arguments as integers): the native library's batch "
     "step, called directly (for majiang.native)."},
    {"stepper", (PyCFunction)(void (*)(void))py_stepper, METH_FASTCALL,
     "stepper(mj_step_obs address, game, mask, rewards, obs, kind): a callable (seat, action) -> code, the "
     "native library's mj_step_obs called directly with the rest bound (for majiang.native)."},
    {"encoder", (PyCFunction)(void (*)(void))py_encoder, METH_FASTCALL,
     "encoder(mj_encode_obs address, game, obs, kind): a callable (seat) -> code, the native library's "
     "mj_encode_obs called directly with the rest bound (for majiang.native)."},
    {"forwarded", py_forwarded, METH_NOARGS, "How many calls were handed to the Python functions (for tests)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups",
                                    "The C hot path of majiang.core.analysis (optional).", -1, methods};

PyMODINIT_FUNC PyInit__speedups(void) {
    str_counts = PyUnicode_InternFromString("counts");
    str_melds = PyUnicode_InternFromString("melds");
    str_tile = PyUnicode_InternFromString("tile");
    str_kind = PyUnicode_InternFromString("kind");
    static const char *waits_names[5] = {"counts", "totals", "variant", "void", "closed"};
    for (int i = 0; i < 5; i++)
        if ((str_waits_args[i] = PyUnicode_InternFromString(waits_names[i])) == NULL) return NULL;
    static const char *counts_names[7] = {"counts", "variant", "sets", "void", "caps", "seven_pairs", "meld_suits"};
    for (int i = 0; i < 7; i++)
        if ((str_counts_args[i] = PyUnicode_InternFromString(counts_names[i])) == NULL) return NULL;
    str_arg[0] = PyUnicode_InternFromString("hand");
    str_arg[1] = PyUnicode_InternFromString("variant");
    str_arg[2] = PyUnicode_InternFromString("void");
    if (!str_counts || !str_melds || !str_tile || !str_kind || !str_arg[0] || !str_arg[1] || !str_arg[2]) return NULL;
    for (int i = 0; i < 5; i++)
        if ((small_int[i] = PyLong_FromLong(i)) == NULL) return NULL;
    uintptr_t stride = (uintptr_t)small_int[1] - (uintptr_t)small_int[0];
    int even = stride > 0 && (stride & (stride - 1)) == 0 && small_int[0] != small_int[1];
    for (int i = 2; i < 5; i++) even &= (uintptr_t)small_int[i] - (uintptr_t)small_int[i - 1] == stride;
    for (uintptr_t s = stride; even && s > 1; s >>= 1) small_shift++;
    if (PyType_Ready(&BoundType) < 0) return NULL;
    return PyModule_Create(&module);
}
