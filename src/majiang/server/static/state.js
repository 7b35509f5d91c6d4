// The page's state and the one function that changes it, with no DOM: what the server last sent and
// what this page has picked, selected and chosen. Render modules read it; events go through `reduce`.
import { applyPatch } from "./protocol.js";

/**
 * @typedef {"seated" | "invite" | "watch"} Mode  how this page is in the room: seated (or kept a
 *   seat), a visitor deciding on an invite link, or watching
 * @typedef {{id: string, name: string}} Player
 * @typedef {string | number | boolean | null} OptionValue  a rule option's value
 * @typedef {{
 *   me: Player | null, snap: Protocol.Snapshot | null, roomCode: string | null, mode: Mode, nextSeat: number | null,
 *   picked: string[], pickedFor: string, selKey: string | null, showHints: boolean, clockSkew: number,
 *   replaying: boolean, taught: number, settlementClosedFor: string | null, formOptions: Record<string, OptionValue>,
 * }} State  besides the room: `taught` counts the discards made by the double tap the prompt teaches (thrice,
 *   then only the clock; kept in this browser), `settlementClosedFor` the hand whose settlement this player
 *   closed (it stays closed for that hand), `formOptions` the room form's options changed from its preset's
 * @typedef {{type: "frame", msg: Protocol.ServerMessage, at: number}
 *   | {type: "open", code: string, mode: Mode}
 *   | {type: "joined", nextSeat: number | null}
 *   | {type: "mode", mode: Mode}
 *   | {type: "me", me: Player | null}
 *   | {type: "hints", on: boolean}
 *   | {type: "pick", key: string}
 *   | {type: "select", key: string | null}
 *   | {type: "acted"}
 *   | {type: "dropped"}
 *   | {type: "replay"}
 *   | {type: "learned"}
 *   | {type: "settlement-closed", key: string | null}
 *   | {type: "option", name: string, value: OptionValue | undefined}
 *   | {type: "options-reset"}} Event  an option's value undefined: back to the preset's
 */

/** @param {{showHints?: boolean, taught?: number}} [opts] what this browser kept @returns {State} */
export function initialState(opts = {}) {
  return { me: null, snap: null, roomCode: null, mode: "seated", nextSeat: null, picked: [], pickedFor: "", selKey: null,
    showHints: !!opts.showHints, clockSkew: 0, replaying: false, taught: opts.taught || 0, settlementClosedFor: null,
    formOptions: {} };
}

/**
 * The one holder of the page's state: `state` is the latest, `dispatch` the only way to a next one.
 * @param {State} initial
 * @returns {{readonly state: State, dispatch: (ev: Event) => void}}
 */
export function createStore(initial) {
  let state = initial;
  return { get state() { return state; }, dispatch: (ev) => { state = reduce(state, ev); } };
}

/**
 * What one's picks belong to: a new hand, phase or hand of tiles forgets them.
 * @param {Protocol.Snapshot} m
 * @returns {string}
 */
export function pickKey(m) {
  const v = m.view, mine = v && m.seat != null ? v.players[m.seat] : null;
  return v && mine ? `${m.room.hand_index}|${v.phase}|${mine.hand}` : "";
}

/**
 * The state after one event; the state given is not changed.
 * @param {State} state
 * @param {Event} ev
 * @returns {State}
 */
export function reduce(state, ev) {
  switch (ev.type) {
    case "frame": {
      let msg = ev.msg;
      if (msg.type === "patch" && state.snap) msg = { ...applyPatch(state.snap, msg.patch), now: msg.now };  // only what changed
      if (msg.type !== "snapshot") return state;
      const next = { ...state, snap: msg };
      if (msg.now) next.clockSkew = msg.now - ev.at;
      const key = pickKey(msg);
      if (key !== state.pickedFor) { next.picked = []; next.pickedFor = key; }
      if (msg.seat != null) { next.mode = "seated"; next.nextSeat = null; }
      return next;
    }
    case "open": return { ...state, roomCode: ev.code, mode: ev.mode };
    case "joined": return { ...state, nextSeat: ev.nextSeat };
    case "mode": return { ...state, mode: ev.mode };
    case "me": return { ...state, me: ev.me };
    case "hints": return { ...state, showHints: ev.on };
    case "pick":  // 换三张: a tile picked or put back, three at most (the oldest goes)
      return { ...state, picked: state.picked.includes(ev.key) ? state.picked.filter((x) => x !== ev.key) : state.picked.concat([ev.key]).slice(-3) };
    case "select": return { ...state, selKey: ev.key };
    case "acted": return { ...state, selKey: null };
    case "dropped": return { ...state, snap: null };
    case "replay": return { ...state, replaying: true };
    case "learned": return state.taught >= 3 ? state : { ...state, taught: state.taught + 1 };
    case "settlement-closed": return state.settlementClosedFor === ev.key ? state : { ...state, settlementClosedFor: ev.key };
    case "option": {
      const formOptions = { ...state.formOptions };
      if (ev.value === undefined) delete formOptions[ev.name]; else formOptions[ev.name] = ev.value;
      return { ...state, formOptions };
    }
    case "options-reset": return { ...state, formOptions: {} };
    default: return state;
  }
}

/** The legal moves of the latest snapshot (none when there is no hand). @param {State} state @returns {Protocol.Action[]} */
export function legalMoves(state) { return (state.snap && state.snap.view && state.snap.view.legal) || []; }

/** Sitting this hand out (a four-person room's bench): told so instead of "watching". @param {State} state */
export function restingMe(state) {
  const snap = state.snap, r = snap && snap.room;
  return !!(snap && r && r.resting && state.me && snap.seat == null && r.resting.name === state.me.name);
}

/** Seats no human holds nor is joining. @param {{humans: boolean[], joining?: (string | null)[]}} r */
export function freeSeats(r) {
  return r.humans.map((x, i) => (!x && !(r.joining && r.joining[i]) ? i : null)).filter((i) => i != null);
}

/**
 * Seconds left before a server deadline (ms since the epoch, the server's clock), never below 0.
 * @param {State} state
 * @param {number | null | undefined} deadline
 * @param {number} now this page's clock (ms)
 * @returns {number | null}
 */
export function secondsLeft(state, deadline, now) {
  return deadline == null ? null : Math.max(0, (deadline - (now + state.clockSkew)) / 1000);
}
