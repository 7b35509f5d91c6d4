// The page's side of the protocol: HTTP calls, the room's socket (reconnecting), and the patches the
// server sends between snapshots. No DOM here: node's tests import this module as it is.

/**
 * The server's patches (views.diff): objects key by key ("~" lists keys gone), equal-length lists
 * item by item ("[]"), anything else replaced. The old snapshot is never changed in place.
 * @param {any} old
 * @param {any} change
 * @returns {any}
 */
export function applyPatch(old, change) {
  const isObj = (/** @type {any} */ x) => x !== null && typeof x === "object" && !Array.isArray(x);
  if (Array.isArray(old) && isObj(change) && "[]" in change) {
    const out = old.slice();
    for (const [i, v] of Object.entries(change["[]"])) out[+i] = applyPatch(old[+i], v);
    return out;
  }
  if (!isObj(old) || !isObj(change)) return change;
  const out = { ...old };
  for (const k of change["~"] || []) delete out[k];
  for (const [k, v] of Object.entries(change)) if (k !== "~") out[k] = k in old ? applyPatch(old[k], v) : v;
  return out;
}

/** A refusal over HTTP: the server's code and parameters kept beside its English words. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {string | null} [code]
   * @param {Record<string, any> | null} [params]
   * @param {number} [status]
   */
  constructor(message, code = null, params = null, status = 0) {
    super(message);
    this.code = code;
    this.params = params;
    this.status = status;
  }
}

/**
 * A JSON call to the server (the session cookie goes along); a refusal throws an ApiError.
 * @param {string} path
 * @param {string} [method]
 * @param {any} [body]
 * @returns {Promise<any>}
 */
export async function api(path, method = "GET", body = null) {
  const res = await fetch(path, { method, credentials: "same-origin",
    headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : null });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = typeof data.detail === "string" ? data.detail : null;
    throw new ApiError(data.error || detail || res.statusText, data.code || null, data.params || null, res.status);
  }
  return data;
}

/** How long to wait before the n-th reconnection in a row (ms). @param {number} n */
export function retryDelay(n) { return Math.min(5000, 500 * n); }

/**
 * The room's socket: it connects again after a drop (sooner after a good frame), and `reopen` starts a
 * new one at once (the server then sees who this page is now).
 * @param {() => string} url  asked again at each connection
 * @param {(msg: Protocol.ServerMessage, socket: WebSocket) => void} onMessage  each frame, parsed (the server sends only these)
 */
export function roomSocket(url, onMessage) {
  /** @type {WebSocket | null} */
  let ws = null;
  let retry = 0;
  function connect() {
    const socket = new WebSocket(url());
    ws = socket;
    socket.onmessage = (ev) => onMessage(JSON.parse(ev.data), socket);
    socket.onclose = () => { setTimeout(connect, retryDelay(++retry)); };
  }
  return {
    connect,
    reopen() { if (ws) { ws.onclose = null; ws.close(); } connect(); },
    /** a frame arrived as it should: the next drop reconnects at once */
    settled() { retry = 0; },
    /** @param {Protocol.ClientMessage} msg */
    send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); },
    get socket() { return ws; },
  };
}

/** The socket's address for a room (patches asked for: only what changed is sent). @param {string} code */
export function roomUrl(code) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  return `${proto}://${location.host}/ws/${encodeURIComponent(code)}?patches=1`;
}
