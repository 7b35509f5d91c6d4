//! A CPython extension module, ``majiang.core._analysis``, over this crate's hand analysis: the
//! binding written by hand against the stable ABI (the limited API of Python 3.11, so one build
//! serves 3.11 and later), because PyO3 would need crates.io, which the build must not reach.
//! Only the functions and structures declared below are used; every one is in the stable ABI.
//! Two reads go past it on the hot path, each checked at load against the API's own answer and
//! skipped where they disagree (``probe_layout``): a tuple's items in place, and a count 0-4 by
//! its small int's address. Built only with the cargo feature ``python`` (the library then needs
//! the interpreter's symbols at load, which a plain ``cargo test`` binary does not have).
//!
//! ``shanten(hand, variant, void=None)``, ``waits(hand, variant, void=None)``,
//! ``shanten_counts`` and ``waits_counts``, as ``majiang.core.analysis`` defines them; the batch
//! calls of ``majiang.core.batch`` (``shanten_rows``, ``batch_shanten``, ``batch_waits``); and the
//! RL calls into the native library (``stepper``, ``encoder``, ``batch_step_at``): what
//! ``core/_speedups.c`` exports. What they cannot decide (an odd argument, a hand that
//! does not fit the variant, a void the variant does not allow) is handed, as called, to the
//! Python reference, which answers or raises its usual error.

// index loops over fixed-size arrays on the hot path: the compiler turns them into vector code
#![allow(non_camel_case_types, non_snake_case, clippy::missing_safety_doc, clippy::needless_range_loop)]

use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_long, c_void};
use std::ptr::{null, null_mut};

use crate::abi::{MjBatchStepDeal, MjEncodeObs, MjStepObs};
use crate::batch;
use crate::hand::{self, Counts};
use crate::shanten::{self, Layout};

#[repr(C)]
pub struct PyObject {
    ob_refcnt: isize,
    ob_type: *mut c_void,
}

type FastWithKeywords =
    unsafe extern "C" fn(*mut PyObject, *const *mut PyObject, isize, *mut PyObject) -> *mut PyObject;
type VarArgs = unsafe extern "C" fn(*mut PyObject, *mut PyObject) -> *mut PyObject;

#[repr(C)]
struct PyMethodDef {
    ml_name: *const c_char,
    ml_meth: *const c_void,
    ml_flags: c_int,
    ml_doc: *const c_char,
}

#[repr(C)]
struct PyModuleDef_Base {
    ob_base: PyObject,
    m_init: Option<unsafe extern "C" fn() -> *mut PyObject>,
    m_index: isize,
    m_copy: *mut PyObject,
}

#[repr(C)]
struct PyModuleDef {
    m_base: PyModuleDef_Base,
    m_name: *const c_char,
    m_doc: *const c_char,
    m_size: isize,
    m_methods: *mut PyMethodDef,
    m_slots: *mut c_void,
    m_traverse: *mut c_void,
    m_clear: *mut c_void,
    m_free: *mut c_void,
}

const METH_VARARGS: c_int = 0x0001;
const METH_NOARGS: c_int = 0x0004;
const METH_KEYWORDS: c_int = 0x0002;
const METH_FASTCALL: c_int = 0x0080;
const PYTHON_ABI_VERSION: c_int = 3; // PyModule_Create's apiver under the limited API

extern "C" {
    fn PyModule_Create2(def: *mut PyModuleDef, apiver: c_int) -> *mut PyObject;
    fn PyLong_FromLong(v: c_long) -> *mut PyObject;
    fn PyLong_AsLong(o: *mut PyObject) -> c_long;
    fn PyObject_GetAttr(o: *mut PyObject, name: *mut PyObject) -> *mut PyObject;
    fn PyObject_Call(callable: *mut PyObject, args: *mut PyObject, kwargs: *mut PyObject) -> *mut PyObject;
    fn PyUnicode_InternFromString(s: *const c_char) -> *mut PyObject;
    fn PyUnicode_AsUTF8AndSize(o: *mut PyObject, size: *mut isize) -> *const c_char;
    fn PyTuple_New(n: isize) -> *mut PyObject;
    fn PyList_GetItem(o: *mut PyObject, i: isize) -> *mut PyObject;
    fn PyList_Size(o: *mut PyObject) -> isize;
    fn PyType_GetFlags(t: *mut c_void) -> std::os::raw::c_ulong;
    fn PyObject_GetBuffer(o: *mut PyObject, view: *mut Py_buffer, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut Py_buffer);
    fn PyBool_FromLong(v: c_long) -> *mut PyObject;
    fn PyLong_AsLongLong(o: *mut PyObject) -> i64;
    fn PyLong_FromLongLong(v: i64) -> *mut PyObject;
    fn PyBytes_FromStringAndSize(s: *const c_char, n: isize) -> *mut PyObject;
    fn PyBytes_AsString(o: *mut PyObject) -> *mut c_char;
    fn PyCFunction_NewEx(ml: *mut PyMethodDef, slf: *mut PyObject, module: *mut PyObject) -> *mut PyObject;
    fn PyEval_SaveThread() -> *mut c_void;
    fn PyEval_RestoreThread(t: *mut c_void);
    static mut PyExc_TypeError: *mut PyObject;
    fn PyUnicode_Compare(a: *mut PyObject, b: *mut PyObject) -> c_int;
    fn PyTuple_Size(o: *mut PyObject) -> isize;
    fn PyTuple_GetItem(o: *mut PyObject, i: isize) -> *mut PyObject;
    fn PyTuple_SetItem(o: *mut PyObject, i: isize, v: *mut PyObject) -> c_int;
    fn PyDict_New() -> *mut PyObject;
    fn PyList_New(n: isize) -> *mut PyObject;
    fn PyList_SetItem(o: *mut PyObject, i: isize, v: *mut PyObject) -> c_int;
    fn PyDict_SetItem(d: *mut PyObject, k: *mut PyObject, v: *mut PyObject) -> c_int;
    fn PyBytes_AsStringAndSize(o: *mut PyObject, buf: *mut *mut c_char, len: *mut isize) -> c_int;
    fn PyArg_ParseTuple(args: *mut PyObject, format: *const c_char, ...) -> c_int;
    fn PyErr_Occurred() -> *mut PyObject;
    fn PyErr_Clear();
    fn PyErr_SetString(kind: *mut PyObject, message: *const c_char);
    fn Py_IncRef(o: *mut PyObject);
    fn Py_DecRef(o: *mut PyObject);
    static mut _Py_NoneStruct: PyObject;
    static mut _Py_TrueStruct: PyObject;
    static mut _Py_FalseStruct: PyObject;
    static mut PyExc_ValueError: *mut PyObject;
    fn PyCapsule_IsValid(o: *mut PyObject, name: *const c_char) -> c_int;
    fn PyCapsule_GetPointer(o: *mut PyObject, name: *const c_char) -> *mut c_void;
}

unsafe fn none() -> *mut PyObject {
    std::ptr::addr_of_mut!(_Py_NoneStruct)
}

// The module's state: set once by ``configure`` under the GIL and read only under it.
struct State {
    shanten: *mut PyObject, // the Python functions, for what is not decided here
    waits: *mut PyObject,
    resolver: *mut PyObject,       // variant -> (kinds mask, suits mask, dragons, two-suit rule)
    shanten_counts: *mut PyObject, // the Python shanten_counts and waits_counts, likewise
    waits_counts: *mut PyObject,
    counts_names: [*mut PyObject; 7], // shanten_counts' parameters: counts, variant, sets, void, caps, seven_pairs, meld_suits
    waits_names: [*mut PyObject; 5],  // waits_counts': counts, totals, variant, void, closed
    list_type: *mut c_void,           // the type of a plain list
    direct_list: bool,                // a list's items lie where its header points (checked at load)
    small: [*mut PyObject; 5],        // the interpreter's cached 0..4: counts are read by identity
    names: [*mut PyObject; 4],        // "counts", "melds", "tile", "kind": a hand's and a meld's attributes
    call_names: [*mut PyObject; 3],   // shanten's and waits': hand, variant, void
    pong: *mut PyObject,              // MeldKind.PONG
    tiles: [*mut PyObject; 30],       // ALL_TILES, what waits answers with
    layouts: Vec<(*mut PyObject, u32, Layout)>, // per variant object (owned): its kinds and groups
    direct: bool,                     // a tuple's items lie after its header (checked at load)
    tuple_type: *mut c_void,          // the type of a plain tuple (for the in-place reads)
    forwarded: u64,                   // calls handed to Python (for the tests)
    batch: [*mut PyObject; 4],        // batch.py's batch_shanten and batch_waits, np.empty, dtype int8
    batch_names: [*mut PyObject; 5],  // counts, variant, void, sets, out
    shift: u32,                       // log2 of the distance between the small ints 0..4, when even; else 0
}

static mut STATE: State = State {
    shanten: null_mut(),
    waits: null_mut(),
    resolver: null_mut(),
    shanten_counts: null_mut(),
    waits_counts: null_mut(),
    counts_names: [null_mut(); 7],
    waits_names: [null_mut(); 5],
    list_type: null_mut(),
    direct_list: false,
    small: [null_mut(); 5],
    names: [null_mut(); 4],
    call_names: [null_mut(); 3],
    pong: null_mut(),
    tiles: [null_mut(); 30],
    layouts: Vec::new(),
    direct: false,
    tuple_type: null_mut(),
    forwarded: 0,
    batch: [null_mut(); 4],
    batch_names: [null_mut(); 5],
    shift: 0,
};

/// A tuple as CPython lays it out (``PyTupleObject``): the header, then the items. Read only when
/// a probe at load found the items there, so an interpreter laid out otherwise takes the calls.
#[repr(C)]
struct TupleHead {
    ob_refcnt: isize,
    ob_type: *mut c_void,
    ob_size: isize,
    ob_item: [*mut PyObject; 0],
}

/// The size of a plain tuple (read in place), or -1 for anything else.
#[inline(always)]
unsafe fn tuple_size(s: &State, o: *mut PyObject) -> isize {
    if s.direct {
        if (*o).ob_type == s.tuple_type {
            (*(o as *mut TupleHead)).ob_size
        } else {
            -1
        }
    } else {
        let n = PyTuple_Size(o);
        if n < 0 {
            PyErr_Clear();
        }
        n
    }
}

#[inline(always)]
unsafe fn item(s: &State, tuple: *mut PyObject, i: isize) -> *mut PyObject {
    if s.direct {
        *(*(tuple as *mut TupleHead)).ob_item.as_ptr().offset(i)
    } else {
        PyTuple_GetItem(tuple, i)
    }
}

unsafe fn state() -> &'static mut State {
    &mut *std::ptr::addr_of_mut!(STATE)
}

/// The call handed to the Python reference with the arguments as given.
#[cold]
#[inline(never)]
unsafe fn forward(
    fallback: *mut PyObject,
    args: *const *mut PyObject,
    nargs: isize,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    if fallback.is_null() {
        PyErr_SetString(PyExc_ValueError, c"majiang.core._analysis is not configured".as_ptr());
        return null_mut();
    }
    state().forwarded += 1;
    let nkw = if kwnames.is_null() { 0 } else { PyTuple_Size(kwnames) };
    let positional = PyTuple_New(nargs);
    if positional.is_null() {
        return null_mut();
    }
    for i in 0..nargs {
        let a = *args.offset(i);
        Py_IncRef(a);
        PyTuple_SetItem(positional, i, a);
    }
    let mut kwargs = null_mut();
    if nkw > 0 {
        kwargs = PyDict_New();
        for i in 0..nkw {
            PyDict_SetItem(kwargs, PyTuple_GetItem(kwnames, i), *args.offset(nargs + i));
        }
    }
    let out = PyObject_Call(fallback, positional, kwargs);
    Py_DecRef(positional);
    if !kwargs.is_null() {
        Py_DecRef(kwargs);
    }
    out
}

/// The variant's kinds (bit k: kind k is a tile of it) and groups, asked of Python once per object.
#[inline(always)]
unsafe fn layout_of(variant: *mut PyObject) -> Option<(u32, Layout)> {
    let s = state();
    for &(key, kinds, lay) in s.layouts.iter() {
        if key == variant {
            return Some((kinds, lay));
        }
    }
    let args = PyTuple_New(1);
    Py_IncRef(variant);
    PyTuple_SetItem(args, 0, variant);
    let plan = PyObject_Call(s.resolver, args, null_mut());
    Py_DecRef(args);
    if plan.is_null() {
        PyErr_Clear();
        return None;
    }
    let mut field = [0 as c_long; 4];
    for (i, f) in field.iter_mut().enumerate() {
        *f = PyLong_AsLong(PyTuple_GetItem(plan, i as isize));
    }
    Py_DecRef(plan);
    if !PyErr_Occurred().is_null() {
        PyErr_Clear();
        return None;
    }
    let lay = Layout {
        suits: [field[1] & 1 != 0, field[1] & 2 != 0, field[1] & 4 != 0],
        dragons: field[2] != 0,
        two_suit_rule: field[3] != 0,
    };
    if s.layouts.len() >= 32 {
        let (old, _, _) = s.layouts.remove(0);
        Py_DecRef(old);
    }
    Py_IncRef(variant);
    s.layouts.push((variant, field[0] as u32, lay));
    Some((field[0] as u32, lay))
}

/// A count 0..4, read by identity with the cached small ints (no call for the common case).
#[inline(always)]
unsafe fn count_of(s: &State, x: *mut PyObject) -> Option<u8> {
    for (v, &p) in s.small.iter().enumerate() {
        if x == p {
            return Some(v as u8);
        }
    }
    None
}

/// One call's hand, read: what ``Hand.check`` and the analysis need.
struct Call {
    counts: Counts,
    caps: Counts, // per kind the copies not in melds: totals = counts + 4 - caps
    n: i32,
    n_melds: isize,
    meld_suits: u8,
    kinds: u32,
    lay: Layout,
    void: i8,
}

/// ``(hand, variant, void=None)`` read, and checked as ``Hand.check`` with ``sizes`` (bit r: a
/// concealed count of 3n+r may be analysed) and ``_check_void`` check them; None: let Python answer.
#[inline(always)]
unsafe fn read_call(args: *const *mut PyObject, nargs: isize, kwnames: *mut PyObject, sizes: u32) -> Option<Call> {
    let s = state();
    if s.resolver.is_null() || s.tiles[0].is_null() {
        return None;
    }
    let [hand, variant, void] = gather(args, nargs, kwnames, &s.call_names, 2)?;
    let void = void_of(void)?;
    let (kinds, lay) = layout_of(variant)?;
    if !void_allowed(&lay, void) {
        return None;
    }
    // the hand: its 30 counts, then its melds
    let tuple = PyObject_GetAttr(hand, s.names[0]);
    if tuple.is_null() {
        PyErr_Clear();
        return None;
    }
    let mut counts: Counts = [0; 30];
    let mut ok = tuple_size(s, tuple) == 30;
    let mut held = 0u32;
    let mut n = 0i32;
    if ok && s.shift > 0 && s.direct {
        // the small ints lie side by side: a count is its distance from 0's (no branch per kind)
        let (zero, shift) = (s.small[0] as usize, s.shift);
        let mask = (1usize << shift) - 1;
        let items = &*((*(tuple as *mut TupleHead)).ob_item.as_ptr() as *const [usize; 30]);
        // separate passes over fixed-size arrays, which the compiler turns into vector code
        let mut d = [0usize; 30];
        for k in 0..30 {
            d[k] = items[k].wrapping_sub(zero);
        }
        let mut bad = 0usize;
        for &x in &d {
            bad |= (x & mask) | ((x >> shift > 4) as usize);
        }
        for k in 0..30 {
            counts[k] = ((d[k] >> shift) & 7) as u8;
        }
        for k in 0..30 {
            n += counts[k] as i32;
            held |= ((counts[k] != 0) as u32) << k;
        }
        if bad != 0 {
            ok = false;
        }
    } else if ok {
        for (k, c) in counts.iter_mut().enumerate() {
            match count_of(s, item(s, tuple, k as isize)) {
                Some(v) => {
                    *c = v;
                    n += v as i32;
                    held |= ((v != 0) as u32) << k;
                }
                None => {
                    ok = false;
                    break;
                }
            }
        }
    }
    Py_DecRef(tuple);
    if !ok {
        PyErr_Clear();
        return None;
    }
    let melds = PyObject_GetAttr(hand, s.names[1]);
    if melds.is_null() {
        PyErr_Clear();
        return None;
    }
    let n_melds = tuple_size(s, melds);
    if !(0..=4).contains(&n_melds) {
        Py_DecRef(melds);
        PyErr_Clear();
        return None;
    }
    let mut caps: Counts = [4; 30];
    let mut meld_suits = 0u8;
    for i in 0..n_melds {
        let m = item(s, melds, i);
        let tile = PyObject_GetAttr(m, s.names[2]);
        let kind = if tile.is_null() { null_mut() } else { PyObject_GetAttr(m, s.names[3]) };
        let t = if tile.is_null() { -1 } else { PyLong_AsLong(tile) };
        let size = if kind == s.pong { 3 } else { 4 };
        if !tile.is_null() {
            Py_DecRef(tile);
        }
        if !kind.is_null() {
            Py_DecRef(kind);
        }
        if kind.is_null()
            || !(0..30).contains(&t)
            || caps[t as usize] < size
            || counts[t as usize] > caps[t as usize] - size
        {
            Py_DecRef(melds);
            PyErr_Clear();
            return None;
        }
        caps[t as usize] -= size;
        held |= 1 << t;
        if t < 27 {
            meld_suits |= 1 << (t / 9);
        }
    }
    Py_DecRef(melds);
    if held & !kinds != 0 || n == 0 || (sizes >> (n % 3)) & 1 == 0 || n + 3 * n_melds as i32 > 14 {
        return None;
    }
    Some(Call { counts, caps, n, n_melds, meld_suits, kinds, lay, void })
}

/// ``shanten(hand, variant, void=None)``, as ``majiang.core.analysis.shanten``.
unsafe extern "C" fn py_shanten(
    _module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: isize,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let Some(c) = read_call(args, nargs, kwnames, 0b110) else {
        return forward(state().shanten, args, nargs, kwnames);
    };
    let sets = ((c.n - 1) / 3) as usize;
    let closed_full = c.n_melds == 0 && c.n >= 13;
    let caps = if c.n_melds > 0 { Some(&c.caps) } else { None };
    let meld_suits = if c.lay.two_suit_rule { c.meld_suits } else { 0 };
    PyLong_FromLong(shanten::shanten(&c.lay, &c.counts, sets, c.void, caps, closed_full, meld_suits) as c_long)
}

/// ``waits(hand, variant, void=None)``, as ``majiang.core.analysis.waits``: a list of tiles.
unsafe extern "C" fn py_waits(
    _module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: isize,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let s = state();
    let Some(c) = read_call(args, nargs, kwnames, 0b010) else {
        return forward(s.waits, args, nargs, kwnames);
    };
    let mut kinds = [0u8; 30];
    let mut nk = 0;
    for k in 0..30 {
        if c.kinds >> k & 1 == 1 {
            kinds[nk] = k as u8;
            nk += 1;
        }
    }
    let mut totals = c.counts;
    for k in 0..30 {
        totals[k] += 4 - c.caps[k];
    }
    let found = hand::waits_inline(&c.counts, &totals, &kinds[..nk], c.lay.two_suit_rule, c.void, c.n_melds == 0);
    list_of(found.iter().map(|&k| {
        let tile = s.tiles[k as usize];
        Py_IncRef(tile);
        tile
    }))
}

/// A new list of ``items`` (each a new reference, or null with an exception: the list is then
/// dropped and null returned).
#[inline(always)]
unsafe fn list_of(items: impl ExactSizeIterator<Item = *mut PyObject>) -> *mut PyObject {
    let list = PyList_New(items.len() as isize);
    if list.is_null() {
        return null_mut();
    }
    for (i, x) in items.enumerate() {
        if x.is_null() {
            Py_DecRef(list);
            return null_mut();
        }
        PyList_SetItem(list, i as isize, x);
    }
    list
}

/// A list as CPython lays it out (``PyListObject``): the header, then a pointer to the items.
#[repr(C)]
struct ListHead {
    ob_refcnt: isize,
    ob_type: *mut c_void,
    ob_size: isize,
    ob_item: *mut *mut PyObject,
}

/// A count vector given as a list or tuple of at least 30 counts 0..4 (the interpreter's cached
/// small ints, compared by address); None: let Python answer.
unsafe fn read_vector(s: &State, seq: *mut PyObject) -> Option<Counts> {
    let ty = (*seq).ob_type;
    let mut out: Counts = [0; 30];
    if ty == s.tuple_type || ty == s.list_type {
        let is_tuple = ty == s.tuple_type;
        if (is_tuple && s.direct) || (!is_tuple && s.direct_list) {
            let (size, items) = if is_tuple {
                ((*(seq as *mut TupleHead)).ob_size, (*(seq as *mut TupleHead)).ob_item.as_ptr())
            } else {
                ((*(seq as *mut ListHead)).ob_size, (*(seq as *mut ListHead)).ob_item as *const *mut PyObject)
            };
            if size < 30 {
                return None;
            }
            for (k, c) in out.iter_mut().enumerate() {
                *c = count_of(s, *items.add(k))?;
            }
            return Some(out);
        }
        let size = if is_tuple { PyTuple_Size(seq) } else { PyList_Size(seq) };
        if size < 30 {
            PyErr_Clear();
            return None;
        }
        for (k, c) in out.iter_mut().enumerate() {
            let x = if is_tuple { PyTuple_GetItem(seq, k as isize) } else { PyList_GetItem(seq, k as isize) };
            *c = count_of(s, x)?;
        }
        return Some(out);
    }
    None
}

/// Positional and keyword arguments by parameter name (interned: identity first, then by value),
/// null where not given; None when one is unknown, given twice, too many are given, or one of
/// the first ``required`` is missing.
#[inline(always)]
unsafe fn gather<const N: usize>(
    args: *const *mut PyObject,
    nargs: isize,
    kwnames: *mut PyObject,
    names: &[*mut PyObject; N],
    required: usize,
) -> Option<[*mut PyObject; N]> {
    if nargs < 0 || nargs as usize > N {
        return None;
    }
    let mut slots = [null_mut(); N];
    let mut given = [false; N];
    for i in 0..nargs as usize {
        slots[i] = *args.add(i);
        given[i] = true;
    }
    if !kwnames.is_null() {
        for i in 0..PyTuple_Size(kwnames) {
            let name = PyTuple_GetItem(kwnames, i);
            let at = match names.iter().position(|&n| n == name) {
                Some(at) => at,
                None => match names.iter().position(|&n| PyUnicode_Compare(n, name) == 0) {
                    Some(at) => at,
                    None => {
                        PyErr_Clear();
                        return None;
                    }
                },
            };
            if given[at] {
                return None;
            }
            slots[at] = *args.offset(nargs + i);
            given[at] = true;
        }
    }
    slots[..required].iter().all(|x| !x.is_null()).then_some(slots)
}

/// An optional argument: null when not given or given as None.
#[inline(always)]
fn given(o: *mut PyObject) -> *mut PyObject {
    if o == unsafe { none() } {
        null_mut()
    } else {
        o
    }
}

/// A flag given as True or False (by identity), ``absent`` when not given; None for anything else.
#[inline(always)]
unsafe fn flag(o: *mut PyObject, absent: bool) -> Option<bool> {
    if o.is_null() {
        Some(absent)
    } else if o == true_() {
        Some(true)
    } else if o == false_() {
        Some(false)
    } else {
        None
    }
}

/// ``sets``: 4 when not given, else an int 0..4 (by identity).
#[inline(always)]
unsafe fn sets_of(s: &State, o: *mut PyObject) -> Option<usize> {
    if o.is_null() {
        Some(4)
    } else {
        count_of(s, o).map(usize::from)
    }
}

/// A void: -1 for None, 0-2 for "m", "p", "s"; None for anything else.
#[inline(always)]
unsafe fn void_of(v: *mut PyObject) -> Option<i8> {
    if given(v).is_null() {
        return Some(-1);
    }
    let mut n = 0isize;
    let text = PyUnicode_AsUTF8AndSize(v, &mut n);
    if text.is_null() || n != 1 {
        PyErr_Clear();
        return None;
    }
    match *text as u8 {
        b'm' => Some(0),
        b'p' => Some(1),
        b's' => Some(2),
        _ => None,
    }
}

/// A void the variant takes (its two-suit rule and the suit in it), or none.
fn void_allowed(lay: &Layout, void: i8) -> bool {
    void < 0 || (lay.two_suit_rule && lay.suits[void as usize])
}

unsafe fn true_() -> *mut PyObject {
    std::ptr::addr_of_mut!(_Py_TrueStruct)
}

unsafe fn false_() -> *mut PyObject {
    std::ptr::addr_of_mut!(_Py_FalseStruct)
}

/// ``shanten_counts(counts, variant, sets=4, void=None, caps=None, seven_pairs=None,
/// meld_suits="")``, as ``majiang.core.analysis.shanten_counts``, on counts and caps given as
/// lists or tuples; anything else goes to the Python function.
unsafe extern "C" fn py_shanten_counts(
    _module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: isize,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let s = state();
    match shanten_counts_of(s, args, nargs, kwnames) {
        Some(d) => PyLong_FromLong(d as c_long),
        None => forward(s.shanten_counts, args, nargs, kwnames),
    }
}

unsafe fn shanten_counts_of(
    s: &State,
    args: *const *mut PyObject,
    nargs: isize,
    kwnames: *mut PyObject,
) -> Option<i32> {
    if s.resolver.is_null() {
        return None;
    }
    let a = gather(args, nargs, kwnames, &s.counts_names, 2)?;
    let sets = sets_of(s, a[2])?;
    let void = void_of(a[3])?;
    let counts = read_vector(s, a[0])?;
    let caps = if given(a[4]).is_null() { None } else { Some(read_vector(s, a[4])?) };
    let seven = flag(given(a[5]), sets == 4 && caps.is_none())?;
    let mut meld_suits = 0u8;
    if !a[6].is_null() {
        let mut n = 0isize;
        let text = PyUnicode_AsUTF8AndSize(a[6], &mut n);
        if text.is_null() {
            PyErr_Clear();
            return None;
        }
        for &ch in std::slice::from_raw_parts(text as *const u8, n as usize) {
            meld_suits |= match ch {
                b'm' => 1,
                b'p' => 2,
                b's' => 4,
                _ => return None,
            };
        }
    }
    let (_, lay) = layout_of(a[1])?;
    if !void_allowed(&lay, void) {
        return None;
    }
    Some(shanten::shanten(&lay, &counts, sets, void, caps.as_ref(), seven, meld_suits))
}

/// ``waits_counts(counts, totals, variant, void=None, closed=True)``, as
/// ``majiang.core.analysis.waits_counts``, on a closed 3n+1 count vector of the variant's tiles
/// (lists or tuples); anything else goes to the Python function. A list of kinds.
unsafe extern "C" fn py_waits_counts(
    _module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: isize,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let s = state();
    match waits_counts_of(s, args, nargs, kwnames) {
        Some(found) => list_of(found.iter().map(|&k| PyLong_FromLong(k as c_long))),
        None => forward(s.waits_counts, args, nargs, kwnames),
    }
}

unsafe fn waits_counts_of(
    s: &State,
    args: *const *mut PyObject,
    nargs: isize,
    kwnames: *mut PyObject,
) -> Option<crate::seats::Kinds> {
    if s.resolver.is_null() {
        return None;
    }
    let a = gather(args, nargs, kwnames, &s.waits_names, 3)?;
    let closed = flag(a[4], true)?;
    let void = void_of(a[3])?;
    let counts = read_vector(s, a[0])?;
    let totals = read_vector(s, a[1])?;
    if PyType_GetFlags((*a[2]).ob_type) & (1 << 28) != 0 {
        return None; // a variant's name: the Python function takes only a Variant here, and says so
    }
    let (kinds_mask, lay) = layout_of(a[2])?;
    if !void_allowed(&lay, void) {
        return None;
    }
    let mut held = 0u32;
    let mut n = 0u32;
    for k in 0..30 {
        held |= ((counts[k] != 0) as u32) << k;
        n += counts[k] as u32;
    }
    if held & !kinds_mask != 0 || n % 3 != 1 || n > 13 {
        return None;
    }
    let mut kinds = [0u8; 30];
    let mut nk = 0;
    for k in 0..30 {
        if kinds_mask >> k & 1 == 1 {
            kinds[nk] = k as u8;
            nk += 1;
        }
    }
    Some(hand::waits_inline(&counts, &totals, &kinds[..nk], lay.two_suit_rule, void, closed))
}

// The RL hot path: calls into the native library that ``majiang.native`` loaded with ctypes,
// through the addresses of its functions, without ctypes' conversion of every argument (about
// ten times the call). Through the addresses rather than this crate's own functions: the games
// live in that library's copy of the crate, which this module's copy must not assume it shares.

/// An integer from Python as an entry point's declared argument type (an address or a number):
/// the types come from ``crate::abi``, generated from ``majiang.native.spec.FUNCTIONS``.
trait FromInt {
    fn from_int(x: i64) -> Self;
}

impl<T> FromInt for *mut T {
    fn from_int(x: i64) -> Self {
        x as usize as *mut T
    }
}

impl<T> FromInt for *const T {
    fn from_int(x: i64) -> Self {
        x as usize as *const T
    }
}

impl FromInt for i64 {
    fn from_int(x: i64) -> Self {
        x
    }
}

impl FromInt for usize {
    fn from_int(x: i64) -> Self {
        x as usize
    }
}

fn arg<T: FromInt>(x: i64) -> T {
    T::from_int(x)
}

type FastCall = unsafe extern "C" fn(*mut PyObject, *const *mut PyObject, isize) -> *mut PyObject;

/// ``args`` as ``n`` integers, or an exception (the wrong count, or one not an integer).
unsafe fn ints<const N: usize>(args: *const *mut PyObject, nargs: isize, what: &CStr) -> Option<[i64; N]> {
    if nargs != N as isize {
        PyErr_SetString(PyExc_TypeError, what.as_ptr());
        return None;
    }
    let mut v = [0i64; N];
    for (i, x) in v.iter_mut().enumerate() {
        *x = PyLong_AsLongLong(*args.add(i));
        if *x == -1 && !PyErr_Occurred().is_null() {
            return None;
        }
    }
    Some(v)
}

/// A callable with ``bound`` kept in a bytes object as its ``self``, called through ``def``.
unsafe fn bind(def: *mut PyMethodDef, bound: &[i64]) -> *mut PyObject {
    if bound[0] == 0 || bound[1] == 0 {
        PyErr_SetString(PyExc_ValueError, c"no function or game".as_ptr());
        return null_mut();
    }
    let holder = PyBytes_FromStringAndSize(bound.as_ptr() as *const c_char, std::mem::size_of_val(bound) as isize);
    if holder.is_null() {
        return null_mut();
    }
    let f = PyCFunction_NewEx(def, holder, null_mut());
    Py_DecRef(holder);
    f
}

unsafe fn bound_of<const N: usize>(holder: *mut PyObject) -> [i64; N] {
    std::ptr::read_unaligned(PyBytes_AsString(holder) as *const [i64; N])
}

/// ``(seat, action) -> code``: ``mj_step_obs`` with the game, its buffers and the kind bound.
unsafe extern "C" fn stepper_call(holder: *mut PyObject, args: *const *mut PyObject, nargs: isize) -> *mut PyObject {
    let Some([seat, action]) = ints::<2>(args, nargs, c"a stepper takes 2 arguments (seat, action)") else {
        return null_mut();
    };
    let b = bound_of::<6>(holder);
    let f = std::mem::transmute::<usize, MjStepObs>(b[0] as usize);
    PyLong_FromLongLong(f(arg(b[1]), seat, action, arg(b[2]), arg(b[3]), arg(b[4]), b[5]))
}

/// ``(seat) -> code``: ``mj_encode_obs`` with the game, its buffer and the kind bound.
unsafe extern "C" fn encoder_call(holder: *mut PyObject, args: *const *mut PyObject, nargs: isize) -> *mut PyObject {
    let Some([seat]) = ints::<1>(args, nargs, c"an encoder takes 1 argument (seat)") else {
        return null_mut();
    };
    let b = bound_of::<4>(holder);
    let f = std::mem::transmute::<usize, MjEncodeObs>(b[0] as usize);
    PyLong_FromLongLong(f(arg(b[1]), seat, arg(b[2]), b[3]))
}

static mut STEPPER_DEF: PyMethodDef = PyMethodDef {
    ml_name: c"stepper".as_ptr(),
    ml_meth: stepper_call as FastCall as *const c_void,
    ml_flags: METH_FASTCALL,
    ml_doc: c"(seat, action) -> code: mj_step_obs with one hand's game and buffers bound.".as_ptr(),
};

static mut ENCODER_DEF: PyMethodDef = PyMethodDef {
    ml_name: c"encoder".as_ptr(),
    ml_meth: encoder_call as FastCall as *const c_void,
    ml_flags: METH_FASTCALL,
    ml_doc: c"(seat) -> code: mj_encode_obs with one hand's game and buffer bound.".as_ptr(),
};

/// ``stepper(address of mj_step_obs, game, mask, rewards, obs, kind)``, every pointer an address.
unsafe extern "C" fn py_stepper(_module: *mut PyObject, args: *const *mut PyObject, nargs: isize) -> *mut PyObject {
    match ints::<6>(args, nargs, c"stepper takes 6 arguments") {
        Some(v) => bind(std::ptr::addr_of_mut!(STEPPER_DEF), &v),
        None => null_mut(),
    }
}

/// ``encoder(address of mj_encode_obs, game, obs, kind)``, every pointer an address.
unsafe extern "C" fn py_encoder(_module: *mut PyObject, args: *const *mut PyObject, nargs: isize) -> *mut PyObject {
    match ints::<4>(args, nargs, c"encoder takes 4 arguments") {
        Some(v) => bind(std::ptr::addr_of_mut!(ENCODER_DEF), &v),
        None => null_mut(),
    }
}

/// ``batch_step_at(address of mj_batch_step_deal, its 13 arguments as integers)``: the GIL let
/// go during the call, as ctypes does (a batch can take milliseconds).
unsafe extern "C" fn py_batch_step_at(
    _module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: isize,
) -> *mut PyObject {
    let Some(v) = ints::<14>(args, nargs, c"batch_step_at takes 14 arguments") else {
        return null_mut();
    };
    if v[0] == 0 || v[1] == 0 {
        PyErr_SetString(PyExc_ValueError, c"batch_step_at: no function or games".as_ptr());
        return null_mut();
    }
    let f = std::mem::transmute::<usize, MjBatchStepDeal>(v[0] as usize);
    let saved = PyEval_SaveThread();
    let code = f(
        arg(v[1]),
        arg(v[2]),
        arg(v[3]),
        arg(v[4]),
        arg(v[5]),
        v[6],
        arg(v[7]),
        arg(v[8]),
        arg(v[9]),
        arg(v[10]),
        arg(v[11]),
        arg(v[12]),
        arg(v[13]),
    );
    PyEval_RestoreThread(saved);
    PyLong_FromLongLong(code)
}

/// ``Py_buffer``, as the limited API of 3.11 lays it out.
#[repr(C)]
pub struct Py_buffer {
    buf: *mut c_void,
    obj: *mut PyObject,
    len: isize,
    itemsize: isize,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut isize,
    strides: *mut isize,
    suboffsets: *mut isize,
    internal: *mut c_void,
}

const PYBUF_WRITABLE: c_int = 0x0001;
const PYBUF_FORMAT: c_int = 0x0004;
const PYBUF_STRIDES: c_int = 0x0008;
const PYBUF_C_CONTIGUOUS: c_int = 0x0020 | PYBUF_STRIDES; // C order

/// A tuple of arguments read by ``PyArg_ParseTuple``'s ``format``: ``N`` objects (null where an
/// optional one is not given), then an int into ``int`` when the format ends with one; None
/// with an exception when they do not fit. The variadic call written once: the addresses past
/// what the format reads are passed and never written.
unsafe fn parse_tuple<const N: usize>(
    args: *mut PyObject,
    format: &CStr,
    int: Option<&mut c_int>,
) -> Option<[*mut PyObject; N]> {
    const MOST: usize = 10;
    if N > MOST {
        return None;
    }
    let mut o = [null_mut::<PyObject>(); MOST];
    let mut at: [*mut c_void; MOST + 1] = std::array::from_fn(|i| o.as_mut_ptr().wrapping_add(i) as *mut c_void);
    at[N] = int.map_or(null_mut(), |x| x as *mut c_int as *mut c_void);
    let [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10] = at;
    if PyArg_ParseTuple(args, format.as_ptr(), a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) == 0 {
        return None;
    }
    o[..N].try_into().ok()
}

/// ``shanten_rows(counts, out, variant, void, sets)``: ``batch.batch_shanten`` over a C-contiguous
/// (N, 27 or 30) integer array of closed hands' counts into ``out`` (N int8); True when done,
/// False when the numpy path must answer (a variant or void it does not take, a win from a
/// single group, a count out of 0-4, a group of more than 14 tiles, an array of another shape).
unsafe extern "C" fn py_shanten_rows(_module: *mut PyObject, args: *mut PyObject) -> *mut PyObject {
    let mut sets: c_int = 0;
    let Some(o) = parse_tuple::<4>(args, c"OOOOi", Some(&mut sets)) else {
        return null_mut();
    };
    let done = (0..=4).contains(&sets)
        && match batch_plan(o[2], o[3]) {
            Some((lay, void)) => match (Rows::of(o[0], &lay), Output::given(o[1], 0)) {
                (Some(rows), Some(out)) if out.n == rows.n => {
                    batch::shanten_rows(&lay, void, &rows.bytes(), rows.width, sets as usize, out.int8())
                }
                _ => {
                    PyErr_Clear();
                    false
                }
            },
            None => false,
        };
    PyBool_FromLong(done as c_long)
}

/// The variant's groups and the void of a batch call, or None when the Python function must
/// answer (a variant it does not know, a void it does not take, a win from a single group: the
/// numpy path refuses those).
#[inline(always)]
unsafe fn batch_plan(variant: *mut PyObject, void: *mut PyObject) -> Option<(Layout, i8)> {
    if state().resolver.is_null() || !shanten::tables_loaded() {
        return None;
    }
    let void = void_of(void)?;
    let (_, lay) = layout_of(variant)?;
    if !void_allowed(&lay, void) || batch::Plan::of(&lay, void).single_group_win() {
        return None;
    }
    Some((lay, void))
}

/// numpy's array object, its leading fields (fixed by numpy's ABI since 1.7): read only when
/// ``configure_batch`` found them so on a probe array; otherwise the buffer protocol does the
/// same work, slower.
#[repr(C)]
struct ArrayFields {
    ob_refcnt: isize,
    ob_type: *mut c_void,
    data: *mut u8,
    nd: c_int,
    dimensions: *const isize,
    strides: *const isize,
    base: *mut PyObject,
    descr: *mut PyObject,
    flags: c_int,
}

const ARRAY_C_CONTIGUOUS: c_int = 0x0001;
const ARRAY_WRITEABLE: c_int = 0x0400;
const TYPE_BOOL: c_int = 0;
const TYPE_BYTE: c_int = 1;
/// ``PyArray_New``, entry 93 of numpy's C-API table.
type ArrayNew = unsafe extern "C" fn(
    *mut c_void,
    c_int,
    *const isize,
    c_int,
    *const isize,
    *mut c_void,
    c_int,
    c_int,
    *mut PyObject,
) -> *mut PyObject;
const RECYCLE_SLOTS: usize = 4;
const RECYCLE_MAX_ROWS: usize = 64;

/// What ``configure_batch`` hands over of numpy, set once under the GIL.
struct Numpy {
    empty: *mut PyObject,
    int8: *mut PyObject,
    uint8: *mut PyObject,
    boolean: *mut PyObject,
    array_type: *mut c_void, // null: the fields are not read
    array_new: Option<ArrayNew>,
    // small result arrays kept for reuse, [bool result][slot]: a loop over small batches then
    // pays no allocation per call (one is reused only when nothing else holds it)
    recycled: [[*mut PyObject; RECYCLE_SLOTS]; 2],
    recycle_next: [usize; 2],
}

static mut NUMPY: Numpy = Numpy {
    empty: null_mut(),
    int8: null_mut(),
    uint8: null_mut(),
    boolean: null_mut(),
    array_type: null_mut(),
    array_new: None,
    recycled: [[null_mut(); RECYCLE_SLOTS]; 2],
    recycle_next: [0; 2],
};

unsafe fn numpy() -> &'static mut Numpy {
    &mut *std::ptr::addr_of_mut!(NUMPY)
}

/// A held buffer, released when dropped.
struct View(Py_buffer);

impl View {
    /// Boxed: the rows and outputs that may hold one stay small, so the common call (a numpy
    /// array read in place, no view) moves a few words, not a ``Py_buffer``.
    unsafe fn of(o: *mut PyObject, flags: c_int) -> Option<Box<View>> {
        let mut v = Box::new(View(std::mem::zeroed()));
        if PyObject_GetBuffer(o, &mut v.0, flags) < 0 {
            return None;
        }
        Some(v)
    }

    /// The format's type letter, after an optional byte-order mark of native order.
    unsafe fn letter(&self) -> u8 {
        if self.0.format.is_null() {
            return 0;
        }
        let f = self.0.format as *const u8;
        let at = if matches!(*f, b'<' | b'=' | b'@') { f.add(1) } else { f };
        if *at != 0 && *at.add(1) != 0 {
            return 0; // more than one letter: not a plain integer type
        }
        *at
    }
}

impl Drop for View {
    fn drop(&mut self) {
        unsafe { PyBuffer_Release(&mut self.0) }
    }
}

/// Rows of counts: a C-contiguous (N, 27 or 30) integer array, read in place (a numpy array of
/// 1-byte integers) or through its buffer.
struct Rows {
    buf: *const u8,
    n: usize,
    width: usize,
    itemsize: usize,
    signed: bool,
    _view: Option<Box<View>>,
}

impl Rows {
    #[inline(always)]
    unsafe fn of(o: *mut PyObject, lay: &Layout) -> Option<Rows> {
        let np = numpy();
        let fits = |width: usize| width == 30 || (width == 27 && !lay.dragons);
        let f = o as *const ArrayFields;
        if !np.array_type.is_null()
            && (*o).ob_type == np.array_type
            && (*f).nd == 2
            && (*f).flags & ARRAY_C_CONTIGUOUS != 0
            && ((*f).descr == np.int8 || (*f).descr == np.uint8)
        {
            let (n, width) = (*(*f).dimensions as usize, *(*f).dimensions.add(1) as usize);
            return fits(width).then_some(Rows { buf: (*f).data, n, width, itemsize: 1, signed: false, _view: None });
        }
        let Some(view) = View::of(o, PYBUF_C_CONTIGUOUS | PYBUF_FORMAT) else {
            PyErr_Clear();
            return None;
        };
        let signed = match view.letter() {
            b'b' | b'h' | b'i' | b'l' | b'q' => true,
            b'B' | b'H' | b'I' | b'L' | b'Q' => false,
            _ => return None,
        };
        let b = &view.0;
        if b.ndim != 2 || !matches!(b.itemsize, 1 | 2 | 4 | 8) {
            return None;
        }
        let (n, width) = (*b.shape as usize, *b.shape.add(1) as usize);
        let (buf, itemsize) = (b.buf as *const u8, b.itemsize as usize);
        fits(width).then_some(Rows { buf, n, width, itemsize, signed, _view: Some(view) })
    }

    /// The counts as bytes: 1-byte ones in place, wider ones copied (one out of 0-4 as 255).
    unsafe fn bytes(&self) -> std::borrow::Cow<'_, [u8]> {
        let items = self.n * self.width;
        if items == 0 {
            return std::borrow::Cow::Borrowed(&[]);
        }
        if self.itemsize == 1 {
            return std::borrow::Cow::Borrowed(std::slice::from_raw_parts(self.buf, items));
        }
        let byte = |x: i64| if (0..=4).contains(&x) { x as u8 } else { 255 };
        let out: Vec<u8> = (0..items)
            .map(|k| {
                byte(match (self.itemsize, self.signed) {
                    (2, true) => *(self.buf as *const i16).add(k) as i64,
                    (2, false) => *(self.buf as *const u16).add(k) as i64,
                    (4, true) => *(self.buf as *const i32).add(k) as i64,
                    (4, false) => *(self.buf as *const u32).add(k) as i64,
                    (_, true) => *(self.buf as *const i64).add(k),
                    (_, false) => (*(self.buf as *const u64).add(k)).min(255) as i64,
                })
            })
            .collect();
        std::borrow::Cow::Owned(out)
    }
}

/// A batch's result: an int8 array of n (``width`` 0) or a bool array of (n, width).
struct Output {
    arr: *mut PyObject, // owned
    buf: *mut u8,
    n: usize,
    len: usize,
    _view: Option<Box<View>>,
}

impl Output {
    /// A new array (a recycled small one when nothing else holds it any more).
    #[inline(always)]
    unsafe fn new(n: usize, width: usize) -> Option<Output> {
        let np = numpy();
        let boolean = width != 0;
        let len = n * width.max(1);
        if let Some(make) = np.array_new {
            let keep = &mut np.recycled[boolean as usize];
            let nd = if boolean { 2 } else { 1 };
            if n <= RECYCLE_MAX_ROWS {
                for &arr in keep.iter() {
                    let f = arr as *const ArrayFields;
                    if !arr.is_null()
                        && (*f).ob_refcnt == 1
                        && (*f).nd == nd
                        && *(*f).dimensions == n as isize
                        && (!boolean || *(*f).dimensions.add(1) == width as isize)
                        && (*f).flags & ARRAY_WRITEABLE != 0
                    {
                        // a new reference, as Py_INCREF does it inline (an array is never immortal)
                        (*(arr as *mut ArrayFields)).ob_refcnt += 1;
                        return Some(Output { arr, buf: (*f).data, n, len, _view: None });
                    }
                }
            }
            let shape = [n as isize, width as isize];
            let kind = if boolean { TYPE_BOOL } else { TYPE_BYTE };
            let arr = make(np.array_type, nd, shape.as_ptr(), kind, null(), null_mut(), 0, 0, null_mut());
            if arr.is_null() {
                return None;
            }
            if n <= RECYCLE_MAX_ROWS {
                // kept in turn, in place of the oldest
                let at = np.recycle_next[boolean as usize];
                np.recycle_next[boolean as usize] = (at + 1) % RECYCLE_SLOTS;
                Py_IncRef(arr);
                let old = std::mem::replace(&mut keep[at], arr);
                if !old.is_null() {
                    Py_DecRef(old);
                }
            }
            return Some(Output { arr, buf: (*(arr as *const ArrayFields)).data, n, len, _view: None });
        }
        let shape = if boolean {
            let t = PyTuple_New(2);
            PyTuple_SetItem(t, 0, PyLong_FromLong(n as c_long));
            PyTuple_SetItem(t, 1, PyLong_FromLong(width as c_long));
            t
        } else {
            PyLong_FromLong(n as c_long)
        };
        let dtype = if boolean { np.boolean } else { np.int8 };
        Py_IncRef(dtype);
        let args = PyTuple_New(2);
        PyTuple_SetItem(args, 0, shape);
        PyTuple_SetItem(args, 1, dtype);
        let arr = PyObject_Call(np.empty, args, null_mut());
        Py_DecRef(args);
        if arr.is_null() {
            return None;
        }
        let out = Output::given(arr, width);
        Py_DecRef(arr);
        out
    }

    /// The caller's array (a new reference kept), or None with an exception when it is not a
    /// C-contiguous writable int8 array of n (bool of (n, width) with ``width``); n is its own.
    unsafe fn given(arr: *mut PyObject, width: usize) -> Option<Output> {
        let np = numpy();
        let boolean = width != 0;
        let f = arr as *const ArrayFields;
        let dtype = if boolean { np.boolean } else { np.int8 };
        let flags = ARRAY_C_CONTIGUOUS | ARRAY_WRITEABLE;
        if !np.array_type.is_null()
            && (*arr).ob_type == np.array_type
            && (*f).nd == if boolean { 2 } else { 1 }
            && (*f).flags & flags == flags
            && (*f).descr == dtype
            && (!boolean || *(*f).dimensions.add(1) == width as isize)
        {
            Py_IncRef(arr);
            let n = *(*f).dimensions as usize;
            return Some(Output { arr, buf: (*f).data, n, len: n * width.max(1), _view: None });
        }
        let view = View::of(arr, PYBUF_C_CONTIGUOUS | PYBUF_FORMAT | PYBUF_WRITABLE)?;
        let b = &view.0;
        let letter = if b.format.is_null() { 0 } else { *(b.format as *const u8) };
        let shape_ok = if boolean { b.ndim == 2 && *b.shape.add(1) == width as isize } else { b.ndim == 1 };
        if !shape_ok || b.itemsize != 1 || letter != if boolean { b'?' } else { b'b' } {
            return None;
        }
        Py_IncRef(arr);
        let n = *b.shape as usize;
        Some(Output { arr, buf: b.buf as *mut u8, n, len: n * width.max(1), _view: Some(view) })
    }

    /// ``out`` when given (checked against n rows), else a new array.
    #[inline(always)]
    unsafe fn for_call(out: *mut PyObject, n: usize, width: usize) -> Option<Output> {
        if out.is_null() || out == none() {
            return Output::new(n, width);
        }
        match Output::given(out, width) {
            Some(o) if o.n == n => Some(o),
            _ => {
                let text = if width == 0 {
                    format!("out must be a C-contiguous int8 array of shape ({n},)\0")
                } else {
                    format!("out must be a C-contiguous bool array of shape ({n}, {width})\0")
                };
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, text.as_ptr() as *const c_char);
                None
            }
        }
    }

    #[allow(clippy::mut_from_ref)] // the array's memory, not the struct's: one call writes it
    unsafe fn int8(&self) -> &mut [i8] {
        if self.len == 0 {
            return &mut [];
        }
        std::slice::from_raw_parts_mut(self.buf as *mut i8, self.len)
    }

    #[allow(clippy::mut_from_ref)]
    unsafe fn bools(&self) -> &mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        std::slice::from_raw_parts_mut(self.buf, self.len)
    }

    /// The array, handed to the caller with this output's reference (its buffer released).
    fn take(mut self) -> *mut PyObject {
        let arr = self.arr;
        drop(self._view.take());
        std::mem::forget(self);
        arr
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        unsafe { Py_DecRef(self.arr) } // the view, if any, holds its own reference
    }
}

/// A batch call's arguments by ``names`` (counts and variant required), or what to return
/// instead: the Python function's answer (``fallback``), or null with ``unconfigured`` raised
/// before ``configure_batch``.
#[inline(always)]
unsafe fn batch_args<const N: usize>(
    fallback: *mut PyObject,
    unconfigured: &CStr,
    names: &[*mut PyObject; N],
    args: *const *mut PyObject,
    nargs: isize,
    kwnames: *mut PyObject,
) -> Result<[*mut PyObject; N], *mut PyObject> {
    if fallback.is_null() || state().resolver.is_null() {
        PyErr_SetString(PyExc_ValueError, unconfigured.as_ptr());
        return Err(null_mut());
    }
    gather(args, nargs, kwnames, names, 2).ok_or_else(|| forward(fallback, args, nargs, kwnames))
}

/// A batch call's work on its rows: ``run`` fills the result (``width`` 0: int8 of n, else bool
/// of (n, width)) from the counts as bytes, true when done; else (a counts array not taken, a
/// row ``run`` refuses) the Python function (``fallback``) answers.
#[inline(always)]
unsafe fn batch_run(
    fallback: *mut PyObject,
    (args, nargs, kwnames): (*const *mut PyObject, isize, *mut PyObject),
    (counts, lay, out): (*mut PyObject, &Layout, *mut PyObject),
    boolean: bool,
    run: impl FnOnce(&[u8], usize, &Output) -> bool,
) -> *mut PyObject {
    let Some(rows) = Rows::of(counts, lay) else {
        return forward(fallback, args, nargs, kwnames);
    };
    let Some(result) = Output::for_call(out, rows.n, if boolean { rows.width } else { 0 }) else {
        return null_mut();
    };
    if run(&rows.bytes(), rows.width, &result) {
        return result.take();
    }
    drop((result, rows)); // a count over 4, a group too large: the Python path says what it says
    forward(fallback, args, nargs, kwnames)
}

/// ``batch.batch_shanten(counts, variant, void=None, sets=4, out=None)`` in one call; what it
/// does not take (another shape or type, a count out of 0-4, a group of more than 14 tiles, a
/// single-group win) goes to the Python function.
unsafe extern "C" fn py_batch_shanten(
    _module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: isize,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let s = state();
    let fallback = s.batch[0];
    let a = match batch_args(fallback, c"batch_shanten before configure_batch", &s.batch_names, args, nargs, kwnames) {
        Ok(a) => a,
        Err(answer) => return answer,
    };
    let (Some(sets), Some((lay, void))) = (sets_of(s, a[3]), batch_plan(a[1], a[2])) else {
        return forward(fallback, args, nargs, kwnames);
    };
    batch_run(fallback, (args, nargs, kwnames), (a[0], &lay, a[4]), false, |rows, width, out| {
        batch::shanten_rows(&lay, void, rows, width, sets, out.int8())
    })
}

/// ``batch.batch_waits(counts, variant, void=None, out=None)`` in one call; a batch with a row
/// it does not take (a count out of 0-4, a group of more than 13 tiles, a tile the variant does
/// not have) goes to the Python function.
unsafe extern "C" fn py_batch_waits(
    _module: *mut PyObject,
    args: *const *mut PyObject,
    nargs: isize,
    kwnames: *mut PyObject,
) -> *mut PyObject {
    let s = state();
    let fallback = s.batch[1];
    let names = [s.batch_names[0], s.batch_names[1], s.batch_names[2], s.batch_names[4]];
    let a = match batch_args(fallback, c"batch_waits before configure_batch", &names, args, nargs, kwnames) {
        Ok(a) => a,
        Err(answer) => return answer,
    };
    let plan = void_of(a[2]).and_then(|void| layout_of(a[1]).map(|(_, lay)| (lay, void)));
    let Some((lay, void)) = plan.filter(|(lay, void)| void_allowed(lay, *void) && shanten::tables_loaded()) else {
        return forward(fallback, args, nargs, kwnames);
    };
    batch_run(fallback, (args, nargs, kwnames), (a[0], &lay, a[3]), true, |rows, width, out| {
        batch::waits_rows(&lay, void, rows, width, out.bools())
    })
}

/// numpy's array fields and ``PyArray_New`` (from its C-API table ``api``), checked on ``probe``
/// (a fresh (3, 30) int8 array) against what the buffer protocol says of it; true when they may
/// be used.
unsafe fn check_array_abi(api: *mut PyObject, probe: *mut PyObject) -> bool {
    let np = numpy();
    if PyCapsule_IsValid(api, null()) == 0 {
        PyErr_Clear();
        return false;
    }
    let table = PyCapsule_GetPointer(api, null()) as *const *const c_void;
    if table.is_null() {
        PyErr_Clear();
        return false;
    }
    let abi_version: unsafe extern "C" fn() -> u32 = std::mem::transmute(*table);
    if !matches!(abi_version(), 0x0100_0009 | 0x0200_0000) {
        return false;
    }
    let array_type = *table.add(2) as *mut c_void;
    if (*probe).ob_type != array_type {
        return false;
    }
    let Some(view) = View::of(probe, PYBUF_STRIDES | PYBUF_FORMAT) else {
        PyErr_Clear();
        return false;
    };
    let b = &view.0;
    let f = probe as *const ArrayFields;
    let flags = ARRAY_C_CONTIGUOUS | ARRAY_WRITEABLE;
    let ok = b.ndim == 2
        && (*f).nd == 2
        && (*f).data == b.buf as *mut u8
        && *(*f).dimensions == 3
        && *(*f).dimensions.add(1) == 30
        && *b.shape == 3
        && *b.shape.add(1) == 30
        && *(*f).strides == 30
        && *(*f).strides.add(1) == 1
        && (*f).flags & flags == flags
        && (*f).descr == np.int8;
    drop(view);
    if !ok {
        return false;
    }
    let make: ArrayNew = std::mem::transmute(*table.add(93));
    let shape = [2isize, 27];
    for (kind, dtype, letter) in [(TYPE_BYTE, np.int8, b'b'), (TYPE_BOOL, np.boolean, b'?')] {
        let arr = make(array_type, 2, shape.as_ptr(), kind, null(), null_mut(), 0, 0, null_mut());
        if arr.is_null() {
            PyErr_Clear();
            return false;
        }
        let f = arr as *const ArrayFields;
        let mut fine = (*arr).ob_type == array_type
            && (*f).nd == 2
            && *(*f).dimensions == 2
            && *(*f).dimensions.add(1) == 27
            && (*f).descr == dtype
            && (*f).flags & ARRAY_C_CONTIGUOUS != 0;
        if fine {
            match View::of(arr, PYBUF_STRIDES | PYBUF_FORMAT) {
                Some(v) => {
                    fine = v.0.buf as *mut u8 == (*f).data
                        && v.0.itemsize == 1
                        && !v.0.format.is_null()
                        && *(v.0.format as *const u8) == letter
                }
                None => fine = false,
            }
        }
        PyErr_Clear();
        Py_DecRef(arr);
        if !fine {
            return false;
        }
    }
    np.array_type = array_type;
    np.array_new = Some(make);
    true
}

/// ``configure_batch(batch_shanten, batch_waits, np.empty, int8, uint8, bool, api, probe)``: the
/// Python batch functions (what is not taken here goes to them), numpy's ``empty`` and dtypes,
/// its C-API table (a capsule) and a probe array; True when numpy's arrays are read and made
/// directly (else through the buffer protocol and ``np.empty``). Called once by batch.py.
unsafe extern "C" fn py_configure_batch(_module: *mut PyObject, args: *mut PyObject) -> *mut PyObject {
    let Some(o) = parse_tuple::<8>(args, c"OOOOOOOO", None) else {
        return null_mut();
    };
    let s = state();
    for &x in &o[..6] {
        Py_IncRef(x); // kept for the module's life
    }
    s.batch = [o[0], o[1], o[2], o[3]];
    let np = numpy();
    (np.empty, np.int8, np.uint8, np.boolean) = (o[2], o[3], o[4], o[5]);
    (np.array_type, np.array_new) = (null_mut(), None);
    batch::prepare(false);
    PyBool_FromLong(check_array_abi(o[6], o[7]) as c_long)
}

/// ``configure(shanten, waits, resolver, suit, honour, rows, pong, tiles, shanten_counts=None,
/// waits_counts=None)``: the Python reference functions, the variant resolver, the shipped tables (bytes of native-endian uint16),
/// ``MeldKind.PONG`` and ``ALL_TILES``. Called once by ``majiang.core.analysis``.
unsafe extern "C" fn py_configure(_module: *mut PyObject, args: *mut PyObject) -> *mut PyObject {
    let Some(o) = parse_tuple::<10>(args, c"OOOSSSOO|OO", None) else {
        return null_mut();
    };
    let table = |o: *mut PyObject| -> Option<&'static [u16]> {
        let (mut buf, mut len) = (null_mut(), 0isize);
        if PyBytes_AsStringAndSize(o, &mut buf, &mut len) != 0 || len % 2 != 0 || (buf as usize) & 1 != 0 {
            return None;
        }
        Some(std::slice::from_raw_parts(buf as *const u16, len as usize / 2))
    };
    let (Some(suit), Some(honour), Some(rows)) = (table(o[3]), table(o[4]), table(o[5])) else {
        PyErr_SetString(PyExc_ValueError, c"the tables must be bytes of uint16".as_ptr());
        return null_mut();
    };
    if PyTuple_Size(o[7]) != 30 {
        PyErr_SetString(PyExc_ValueError, c"ALL_TILES must be a tuple of 30 tiles".as_ptr());
        return null_mut();
    }
    if !shanten::set_tables(suit, honour, rows) {
        PyErr_SetString(PyExc_ValueError, c"the tables were already set to others".as_ptr());
        return null_mut();
    }
    hand::prepare(); // the waits' table too: no first call that costs milliseconds
    let s = state();
    for &x in o.iter().filter(|x| !x.is_null()) {
        Py_IncRef(x); // kept for the module's life
    }
    (s.shanten, s.waits, s.resolver, s.pong) = (o[0], o[1], o[2], o[6]);
    (s.shanten_counts, s.waits_counts) = (o[8], o[9]);
    for k in 0..30 {
        s.tiles[k] = PyTuple_GetItem(o[7], k as isize);
    }
    Py_IncRef(none());
    none()
}

/// How this interpreter lays out what the hot path reads: a tuple's items after its header (a
/// probe tuple's items, read both ways, must agree), the small ints 0..4 evenly spaced.
unsafe fn probe_layout(s: &mut State) {
    for v in 0..5 {
        s.small[v] = PyLong_FromLong(v as c_long); // cached by the interpreter: the same object every time
    }
    let probe = PyTuple_New(30);
    if probe.is_null() {
        PyErr_Clear();
        return;
    }
    for k in 0..30 {
        let x = s.small[k % 5];
        Py_IncRef(x);
        PyTuple_SetItem(probe, k as isize, x);
    }
    s.tuple_type = (*probe).ob_type;
    s.direct = (*(probe as *mut TupleHead)).ob_size == 30
        && (0..30).all(|k| *(*(probe as *mut TupleHead)).ob_item.as_ptr().add(k) == PyTuple_GetItem(probe, k as isize));
    Py_DecRef(probe);
    let list = PyList_New(30);
    if list.is_null() {
        PyErr_Clear();
    } else {
        for k in 0..30 {
            let x = s.small[k % 5];
            Py_IncRef(x);
            PyList_SetItem(list, k as isize, x);
        }
        s.list_type = (*list).ob_type;
        let head = list as *mut ListHead;
        s.direct_list = (*head).ob_size == 30
            && !(*head).ob_item.is_null()
            && (0..30).all(|k| *(*head).ob_item.add(k) == PyList_GetItem(list, k as isize));
        Py_DecRef(list);
    }
    let step = (s.small[1] as usize).wrapping_sub(s.small[0] as usize);
    if step.is_power_of_two() && step >= 16 && (0..5).all(|v| s.small[v] as usize == s.small[0] as usize + v * step) {
        s.shift = step.trailing_zeros();
    }
}

/// ``layout()``, for the tests: bit 0 tuples read in place, bit 1 counts read by address, bit 2
/// lists read in place.
unsafe extern "C" fn py_layout(_module: *mut PyObject, _unused: *mut PyObject) -> *mut PyObject {
    let s = state();
    PyLong_FromLong((s.direct as c_long) | ((s.shift > 0) as c_long) << 1 | (s.direct_list as c_long) << 2)
}

/// ``forwarded()``, for the tests: how many calls were handed to the Python functions.
unsafe extern "C" fn py_forwarded(_module: *mut PyObject, _unused: *mut PyObject) -> *mut PyObject {
    PyLong_FromLong(state().forwarded as c_long)
}

static mut METHODS: [PyMethodDef; 15] = [
    PyMethodDef {
        ml_name: c"batch_shanten".as_ptr(),
        ml_meth: py_batch_shanten as FastWithKeywords as *const c_void,
        ml_flags: METH_FASTCALL | METH_KEYWORDS,
        ml_doc: c"batch_shanten(counts, variant, void=None, sets=4, out=None): majiang.core.batch's, in Rust.".as_ptr(),
    },
    PyMethodDef {
        ml_name: c"batch_waits".as_ptr(),
        ml_meth: py_batch_waits as FastWithKeywords as *const c_void,
        ml_flags: METH_FASTCALL | METH_KEYWORDS,
        ml_doc: c"batch_waits(counts, variant, void=None, out=None): majiang.core.batch's, in Rust.".as_ptr(),
    },
    PyMethodDef {
        ml_name: c"configure_batch".as_ptr(),
        ml_meth: py_configure_batch as VarArgs as *const c_void,
        ml_flags: METH_VARARGS,
        ml_doc: c"configure_batch(batch_shanten, batch_waits, empty, int8, uint8, bool, api, probe): by batch.py."
            .as_ptr(),
    },
    PyMethodDef {
        ml_name: c"stepper".as_ptr(),
        ml_meth: py_stepper as FastCall as *const c_void,
        ml_flags: METH_FASTCALL,
        ml_doc: c"stepper(address of mj_step_obs, game, mask, rewards, obs, kind) -> (seat, action) -> code.".as_ptr(),
    },
    PyMethodDef {
        ml_name: c"encoder".as_ptr(),
        ml_meth: py_encoder as FastCall as *const c_void,
        ml_flags: METH_FASTCALL,
        ml_doc: c"encoder(address of mj_encode_obs, game, obs, kind) -> (seat) -> code.".as_ptr(),
    },
    PyMethodDef {
        ml_name: c"batch_step_at".as_ptr(),
        ml_meth: py_batch_step_at as FastCall as *const c_void,
        ml_flags: METH_FASTCALL,
        ml_doc: c"batch_step_at(address of mj_batch_step_deal, its 13 arguments as integers) -> code.".as_ptr(),
    },
    PyMethodDef {
        ml_name: c"shanten_rows".as_ptr(),
        ml_meth: py_shanten_rows as VarArgs as *const c_void,
        ml_flags: METH_VARARGS,
        ml_doc: c"shanten_rows(counts, out, variant, void, sets): batch shanten of closed rows; False: numpy answers."
            .as_ptr(),
    },
    PyMethodDef {
        ml_name: c"forwarded".as_ptr(),
        ml_meth: py_forwarded as VarArgs as *const c_void,
        ml_flags: METH_NOARGS,
        ml_doc: c"forwarded(): how many calls were handed to the Python functions (for tests).".as_ptr(),
    },
    PyMethodDef {
        ml_name: c"shanten_counts".as_ptr(),
        ml_meth: py_shanten_counts as FastWithKeywords as *const c_void,
        ml_flags: METH_FASTCALL | METH_KEYWORDS,
        ml_doc:
            c"shanten_counts(counts, variant, sets=4, void=None, caps=None, seven_pairs=None, meld_suits=''): in Rust."
                .as_ptr(),
    },
    PyMethodDef {
        ml_name: c"waits_counts".as_ptr(),
        ml_meth: py_waits_counts as FastWithKeywords as *const c_void,
        ml_flags: METH_FASTCALL | METH_KEYWORDS,
        ml_doc: c"waits_counts(counts, totals, variant, void=None, closed=True): in Rust.".as_ptr(),
    },
    PyMethodDef {
        ml_name: c"shanten".as_ptr(),
        ml_meth: py_shanten as FastWithKeywords as *const c_void,
        ml_flags: METH_FASTCALL | METH_KEYWORDS,
        ml_doc: c"shanten(hand, variant, void=None): majiang.core.analysis.shanten in Rust.".as_ptr(),
    },
    PyMethodDef {
        ml_name: c"waits".as_ptr(),
        ml_meth: py_waits as FastWithKeywords as *const c_void,
        ml_flags: METH_FASTCALL | METH_KEYWORDS,
        ml_doc: c"waits(hand, variant, void=None): majiang.core.analysis.waits in Rust.".as_ptr(),
    },
    PyMethodDef {
        ml_name: c"configure".as_ptr(),
        ml_meth: py_configure as VarArgs as *const c_void,
        ml_flags: METH_VARARGS,
        ml_doc: c"configure(shanten, waits, resolver, suit, honour, rows, pong, tiles): once, by analysis.py.".as_ptr(),
    },
    PyMethodDef {
        ml_name: c"layout".as_ptr(),
        ml_meth: py_layout as VarArgs as *const c_void,
        ml_flags: METH_NOARGS,
        ml_doc: c"layout(): bit 0 tuples read in place, bit 1 counts read by address (for tests).".as_ptr(),
    },
    PyMethodDef { ml_name: null(), ml_meth: null(), ml_flags: 0, ml_doc: null() },
];

static mut MODULE: PyModuleDef = PyModuleDef {
    m_base: PyModuleDef_Base {
        ob_base: PyObject { ob_refcnt: 1, ob_type: null_mut() },
        m_init: None,
        m_index: 0,
        m_copy: null_mut(),
    },
    m_name: c"_analysis".as_ptr(),
    m_doc: c"majiang's hand analysis in Rust (the crate in native/), bound by hand to the stable ABI.".as_ptr(),
    m_size: -1,
    m_methods: null_mut(),
    m_slots: null_mut(),
    m_traverse: null_mut(),
    m_clear: null_mut(),
    m_free: null_mut(),
};

#[no_mangle]
pub unsafe extern "C" fn PyInit__analysis() -> *mut PyObject {
    let s = state();
    let intern = |names: &[&CStr], into: &mut [*mut PyObject]| {
        for (slot, name) in into.iter_mut().zip(names) {
            *slot = PyUnicode_InternFromString(name.as_ptr());
        }
    };
    intern(&[c"counts", c"melds", c"tile", c"kind"], &mut s.names);
    intern(&[c"hand", c"variant", c"void"], &mut s.call_names);
    intern(&[c"counts", c"variant", c"sets", c"void", c"caps", c"seven_pairs", c"meld_suits"], &mut s.counts_names);
    intern(&[c"counts", c"totals", c"variant", c"void", c"closed"], &mut s.waits_names);
    intern(&[c"counts", c"variant", c"void", c"sets", c"out"], &mut s.batch_names);
    probe_layout(s);
    let module = std::ptr::addr_of_mut!(MODULE);
    (*module).m_methods = std::ptr::addr_of_mut!(METHODS) as *mut PyMethodDef;
    PyModule_Create2(module, PYTHON_ABI_VERSION)
}
