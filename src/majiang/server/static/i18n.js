// One message catalogue: Chinese first, English by a toggle remembered in this browser.
// Tiles are named the Chinese way (五筒, 九条, 红中) in both languages; English adds a gloss.
const NUM = "一二三四五六七八九";
/** @type {Record<string, string>} */
const SUIT_ZH = { m: "万", p: "筒", s: "条" };
/** @type {Record<string, string>} */
const SUIT_EN = { m: "Characters", p: "Dots", s: "Bamboo" };
/** @type {Record<string, string>} */
const DRAGON_ZH = { 5: "白板", 6: "发财", 7: "红中" };
/** @type {Record<string, string>} */
const DRAGON_EN = { 5: "White", 6: "Green", 7: "Red" };
/** @type {Record<"zh" | "en", Record<string, string>>} */
const M = {
  zh: {
    title: "卡五星 · 血战到底", lobby_title: "大厅", lang: "EN", lang_label: "Switch to English", mute: "静音", unmute: "声音",
    your_name: "昵称", save: "保存", name_ph: "你的名字", new_table: "开桌", game: "玩法", preset: "规则",
    players: "{n}人", bots: "空位机器人", bot_random: "随机",
    bot_greedy: "普通", bot_strong: "高手", bot_expert: "大师",
    pace: "节奏", pace_fast: "快", pace_normal: "标准", pace_slow: "慢", hands: "局数", stake: "底分", timer: "出牌时间 (秒)", options: "规则选项",
    create: "创建房间", join_title: "加入房间", code_ph: "房间号", join: "加入", watch: "观战",
    history: "战绩", no_history: "还没有战绩", replay: "回放", hand_n: "第{n}局", result_win: "赢", result_lose: "输",
    result_even: "平", finished: "已结束", playing: "进行中", lobby: "等待中", more: "更多",
    room: "房间", hand_of: "第 {i}/{n} 局", wall: "余 {n} 张", dealer: "庄", watching: "观战中", auto: "托管",
    auto_on: "托管中", auto_off: "取消托管", offline: "离线", out: "已胡", leave: "离开", hint: "提示",
    share: "邀请好友: 发送房间号或链接", share_note: "只有这台电脑能打开这个地址: 用 --host 0.0.0.0 启动服务器, 同一网络的朋友才能加入",
    seat_n: "{n}号位", host: "房主", you: "你", empty: "空位", bot: "机器人", sit: "入座", start: "开始",
    waiting_start: "等待房主开始", void_badge: "缺{s}", void_pick: "定缺: 选一门不要的花色", suggested: "推荐",
    exchange_pick: "换三张: 选同一花色的三张牌", exchange_do: "换出 {t}", exchange_need: "再选 {n} 张",
    your_turn: "轮到你出牌: 点一张牌选中, 再点一下打出", claim_wait: "等待其他玩家…", discard_verb: "打",
    a_discard: "打", a_win: "胡", a_zimo: "自摸", a_pong: "碰", a_kong: "杠", a_concealed_kong: "暗杠", a_added_kong: "加杠",
    a_pass: "过", a_declare: "亮倒", a_dance: "跳舞", a_sing: "唱歌", a_void: "缺", a_exchange: "换三张",
    liangdao: "亮倒", sing: "唱歌", dance: "跳舞", waits: "听", hidden_triplets: "另有{n}坎未亮",
    hint_discard: "打{t} → {r}", hint_ready: "听 {w}", hint_shanten: "差{n}张听牌", hint_count: "{n}张可进",
    hint_waits: "听牌: {w}", hint_left: "{t}剩{n}", last_discard: "{who} 打出 {t}",
    settlement: "结算", drawn_hand: "荒庄", win_by: "{who} 胡 {t}", zimo: "自摸", dianpao: "{who} 点炮",
    robbed: "抢杠", fan_total: "共 {n} 番", fan_n: "{n}番", fan_base: "底分", mult_total: "共 ×{n}", pays: "{a} → {b}", amount: "分",
    hand_total: "本局", match_total: "总分", ready: "准备", ready_done: "已准备, 等待其他玩家", ready_list: "已准备: {l}",
    next_hand: "下一局", to_lobby: "回大厅", rematch: "再来一局", rematch_offer: "{who} 邀请大家再来一局 (同样的规则和座位)", rematch_join: "加入再来一局", close: "关闭", match_over: "终局",
    summary: "对局总结", rest_cell: "休", absent_cell: "—", winner: "{who} 赢了", hand_col: "局", total_col: "合计",
    err_code: "房间号是6位数字", err_replay: "不是回放链接", replay_title: "回放", step: "第 {i}/{n} 步",
    play: "播放", pause: "暂停", first: "开头", prev: "上一步", next: "下一步", last: "结尾", speed: "速度",
    deal: "发牌", r_draw: "{who} 摸牌", r_act: "{who} {a}", seconds: "{n}秒", spectators: "观众",
    status_lobby: "等待开始", status_playing: "进行中", status_finished: "已结束",
    opt_invalid: "规则组合无效: {m}", opt_needs: "{a} 需要打开 {b}", preset_desc: "预设", dice: "骰子", timer_default: "默认",
    kb_help: "键盘: ←→ 选牌, 回车打出, H 胡, P 碰, K 杠, 空格 过",
    phase_exchange: "换三张", phase_void: "定缺", phase_turn: "出牌", phase_claim: "等待吃碰",
    none_opt: "不限", yes: "开", no: "关",
    ready_tag: "已准备", wait_ready: "等待 {l} 准备", start_wait: "等待 {l} 准备, 到时自动开局", starting: "即将开局", chat: "聊天", dissolve: "解散", agree: "同意", refuse: "拒绝", vote_text: "{who} 申请解散房间 (同意 {n}/{m})",
    dissolve_confirm: "申请解散: 所有玩家同意后结束对局", dissolved: "房间已解散",
    p_hello: "大家好!", p_hurry: "快点吧, 等得花都谢了", p_nice: "打得好!", p_thanks: "谢谢", p_oops: "哎呀…",
    p_again: "再来一局!", p_bye: "下次再玩", p_laugh: "笑", p_cry: "哭", p_angry: "怒", p_thumb: "赞", p_flower: "花",
    back_title: "回到牌桌", back_go: "回到牌桌", back_row: "{g} · 房间 {c} · {s}",
    invite_title: "{host} 邀请你来打{g}", invite_title_nohost: "房间 {c} · {g}", invite_rules: "{p} · {h}局 · 底分 {s}",
    invite_free: "空位 (机器人代打, 你来就让给你)", invite_full: "座位都满了, 可以观战",
    invite_next: "对局进行中: 你将从下一局起坐{n}号位 (机器人打完这一局)",
    invite_next_wait: "已为你保留{n}号位, 这一局结束后入座", watch_only: "只观战", default_name: "玩家{n}",
    share_btn: "分享邀请", share_copied: "已复制邀请链接", share_text: "来打{g}! 房间号 {c}", qr_alt: "邀请链接二维码",
    leave_title: "离开牌桌?", leave_text: "对局还在进行: 离开后由托管替你出牌 (只胡牌和出牌, 不亮倒不碰杠)。你随时可以从大厅点「回到牌桌」回来。",
    leave_stay: "留下", leave_go: "离开", turn_note: "把手机横过来, 牌桌更大",
    missed_note: "超时: 已替你出牌。再超时一次将自动托管", auto_note: "托管中: 点任意处取消",
    hint_win: "可以胡牌! 点「{a}」", out_note: "你已胡牌 ({t}), 本局出局: 看其他{n}家继续打", out_note_done: "你已胡牌 ({t})",
    joining_tag: "下一局入座: {n}", reconnect: "重新连接…", claim_prompt: "{t}: 要吗?", people: "人数", people_3: "3人", people_4w: "4人 · 赢家休息", people_4r: "4人 · 轮流休息",
    resting: "本局轮休: {n} ({s})", resting_you: "你本局轮休 ({s}), 下一局上桌", bench: "轮休席", bench_free: "轮休席: 空 (第4位朋友坐这里)",
    bench_line: "轮休席: {n}", sit_bench: "入座 (先轮休一局)", rule_winner: "赢家休息", rule_rotate: "轮流休息", no_declare: "不亮, 打{t}",
    declare_prompt: "可以亮倒: 选一张打出并亮牌 (亮后手牌公开, 只能摸打), 或不亮直接出牌", frozen_note: "已亮牌: 摸到的牌不能胡就自动打出",
    declare_prompt_sc: "可以报听: 唱歌 (听的牌不公开) 或跳舞 (亮出手牌), 报听后只能摸打; 也可以不报直接出牌",
    // the settlement's words, the help sheet and the buttons' tooltips (issue 31)
    brand: "麻将", settle_won: "{who} 胡了", fan_total_x: "共 {n} 番 (×{m} 底分)", fan_total_base: "共 ×{m} 底分", settle_drawn: "荒庄: 没人胡牌", players_col: "玩家", worth_times: "×{n}",
    dc_title: "查叫", dc_ready: "听 {w}", dc_not_ready: "没听牌", dc_pig: "花猪: 手里还有三门牌", dc_paid: "赔给听牌的人",
    help: "帮助", help_title: "按钮说明", help_buttons: "按钮", help_keys: "键盘快捷键 (电脑)",
    key_space: "空格", key_enter: "回车", key_arrows: "←→",
    kb_pick: "选牌", kb_discard: "打出选中的牌",
    tip_help: "按钮和快捷键说明", tip_lang: "切换语言", tip_mute: "打开或关闭声音", tip_hint: "显示出牌建议和听的牌",
    tip_auto: "让电脑替你打 (只胡牌和出牌)", tip_chat: "发快捷语或表情", tip_dissolve: "申请解散: 大家都同意就结束对局",
    tip_leave: "回大厅 (离开时托管替你打)", tip_win: "胡这张牌", tip_zimo: "自摸胡牌", tip_pong: "碰: 用两张相同的牌拿走这张",
    tip_kong: "杠: 四张相同的牌, 再摸一张", tip_concealed_kong: "暗杠: 手里四张相同的牌, 再摸一张", tip_added_kong: "加杠: 在碰过的牌上加第四张",
    tip_pass: "不要这张牌", tip_declare: "报听并亮牌: 之后只摸牌打牌", tip_sing: "报听不亮牌: 之后只摸牌打牌",
    tip_no_declare: "不报听, 直接打出这张", tip_exchange: "把选好的三张换给别人", tip_void: "定缺: 这一门的牌都要打掉",
    tip_ready: "准备好打下一局", tip_settle: "再看这一局的结算", tip_rematch: "用同样的规则和座位再开一场", tip_lobby: "回到大厅",
    tip_close: "关闭这个窗口", tip_discard: "选一张牌, 再点一下打出",
    // the table: 换三张's received tiles
    recv_clockwise: "顺", recv_counterclockwise: "逆", recv_across: "对家",
    recv_clockwise_long: "顺时针换入 (来自下家)", recv_counterclockwise_long: "逆时针换入 (来自上家)", recv_across_long: "对家换入",
    review: "复盘",  // the rest of its words: review-words.js
  },
  en: {
    title: "Kawuxing · Blood battle", lobby_title: "Lobby", lang: "中文", lang_label: "切换到中文", mute: "Mute", unmute: "Sound",
    your_name: "Your name", save: "Save", name_ph: "your name", new_table: "New table", game: "Game", preset: "Rules",
    players: "{n} players", bots: "Bots for empty seats",
    bot_random: "random", bot_greedy: "normal", bot_strong: "strong", bot_expert: "master",
    pace: "Bots' pace", pace_fast: "fast", pace_normal: "normal", pace_slow: "slow", hands: "Hands", stake: "Stake",
    timer: "Decision timer (s)", options: "Rule options", create: "Create room", join_title: "Join a room",
    code_ph: "room code", join: "Join", watch: "Watch", history: "History", no_history: "No matches yet",
    replay: "replay", hand_n: "hand {n}", result_win: "won", result_lose: "lost", result_even: "even",
    finished: "finished", playing: "playing", lobby: "waiting", more: "more",
    room: "Room", hand_of: "hand {i}/{n}", wall: "{n} left", dealer: "Dealer", watching: "Watching",
    auto: "Auto-play", auto_on: "Auto-play on", auto_off: "Stop auto-play", offline: "offline", out: "won",
    leave: "Leave", hint: "Hints", share: "Invite friends: send the room code or this link",
    share_note: "Only this computer can open this address: start the server with --host 0.0.0.0 so friends on your network can join.",
    seat_n: "seat {n}", host: "host", you: "you", empty: "empty", bot: "bot", sit: "Take a seat", start: "Start",
    waiting_start: "Waiting for the host to start", void_badge: "void {s}", void_pick: "Void: choose the suit you will not keep",
    suggested: "suggested", exchange_pick: "Pass three: pick three tiles of one suit", exchange_do: "Pass {t}",
    exchange_need: "pick {n} more", your_turn: "Your turn: tap a tile to select it, tap again to discard",
    claim_wait: "Waiting for the others…", discard_verb: "discard",
    a_discard: "Discard", a_win: "Win", a_zimo: "Self-draw", a_pong: "Pong", a_kong: "Kong",
    a_concealed_kong: "Concealed kong", a_added_kong: "Added kong", a_pass: "Pass",
    a_declare: "Declare", a_dance: "Dance", a_sing: "Sing", a_void: "Void", a_exchange: "Pass three",
    liangdao: "declared", sing: "sing", dance: "dance", waits: "waits", hidden_triplets: "{n} triplet(s) hidden",
    hint_discard: "discard {t} → {r}", hint_ready: "ready on {w}", hint_shanten: "{n} from ready",
    hint_count: "{n} tiles help", hint_waits: "Ready: {w}", hint_left: "{t} ×{n} left", last_discard: "{who} discarded {t}",
    settlement: "Settlement", drawn_hand: "Drawn hand", win_by: "{who} wins on {t}", zimo: "self-drawn",
    dianpao: "discarded by {who}", robbed: "robbed kong", fan_total: "{n} fan total", fan_n: "{n} fan", fan_base: "base", mult_total: "×{n} total",
    pays: "{a} → {b}", amount: "points", hand_total: "This hand", match_total: "Match", ready: "Ready",
    ready_done: "Ready, waiting for the others", ready_list: "Ready: {l}", next_hand: "Next hand",
    to_lobby: "Back to the lobby", rematch: "Rematch", rematch_offer: "{who} asks everyone for a rematch (same rules and seats)", rematch_join: "Join the rematch", close: "Close", match_over: "Match over",
    summary: "Match summary", rest_cell: "sat out", absent_cell: "—", winner: "{who} wins the match", hand_col: "Hand", total_col: "Total",
    err_code: "a room code is six digits", err_replay: "not a replay link", replay_title: "Replay",
    step: "step {i}/{n}", play: "Play", pause: "Pause", first: "First", prev: "Previous", next: "Next", last: "Last",
    speed: "Speed", deal: "the deal", r_draw: "{who} draws", r_act: "{who}: {a}", seconds: "{n}\u00a0sec",
    spectators: "watching", status_lobby: "waiting to start", status_playing: "playing", status_finished: "finished",
    opt_invalid: "These rules do not go together: {m}", opt_needs: "{a} needs {b} on", preset_desc: "preset", dice: "dice", timer_default: "default",
    kb_help: "Keys: ← → pick a tile, Enter discards, H win, P pong, K kong, Space pass",
    phase_exchange: "pass three", phase_void: "void suit", phase_turn: "discard", phase_claim: "claims",
    none_opt: "no limit", yes: "on", no: "off",
    ready_tag: "ready", wait_ready: "Waiting for {l} to get ready", start_wait: "Waiting for {l} to get ready; the hand is dealt when the timer ends", starting: "Starting", chat: "Chat", dissolve: "Dissolve", agree: "Agree", refuse: "Refuse", vote_text: "{who} asks to dissolve the room (agreed {n}/{m})",
    dissolve_confirm: "Ask to dissolve: the match ends when every player agrees", dissolved: "The room was dissolved",
    p_hello: "Hello everyone!", p_hurry: "Hurry up please", p_nice: "Nice play!", p_thanks: "Thanks", p_oops: "Oops…",
    p_again: "One more game!", p_bye: "See you next time", p_laugh: "laugh", p_cry: "cry", p_angry: "angry", p_thumb: "great", p_flower: "flower",
    back_title: "Back to your table", back_go: "Back to the table", back_row: "{g} · room {c} · {s}",
    invite_title: "{host} invites you to play {g}", invite_title_nohost: "Room {c} · {g}", invite_rules: "{p} · {h} hands · stake {s}",
    invite_free: "free (a bot plays it until you sit)", invite_full: "Every seat is taken: you can watch",
    invite_next: "A hand is being played: you sit in seat {n} from the next hand (a bot finishes this one)",
    invite_next_wait: "Seat {n} is kept for you: you sit down when this hand ends", watch_only: "Just watch", default_name: "Player {n}",
    share_btn: "Share the invite", share_copied: "Invite link copied", share_text: "Come and play {g}! Room {c}", qr_alt: "QR code of the invite link",
    leave_title: "Leave the table?", leave_text: "The match goes on: while you are away, auto-play plays for you (it only wins and discards, never declares, pongs or kongs). Come back any time with \u201cBack to your table\u201d in the lobby.",
    leave_stay: "Stay", leave_go: "Leave", turn_note: "Turn your phone sideways for a bigger table",
    missed_note: "Time ran out: a tile was played for you. Miss once more and auto-play takes over", auto_note: "Auto-play is on: tap anywhere to take over",
    hint_win: "You can win! Press \u201c{a}\u201d", out_note: "You have won ({t}) and are out of this hand: the other {n} play on", out_note_done: "You have won ({t})",
    joining_tag: "joins next hand: {n}", reconnect: "Reconnecting…", claim_prompt: "{t}: take it?", people: "Players", people_3: "3", people_4w: "4 · the winner sits out", people_4r: "4 · sit out in turn",
    resting: "Sitting out this hand: {n} ({s})", resting_you: "You sit out this hand ({s}); you play the next", bench: "bench", bench_free: "Bench: free (for a fourth friend)",
    bench_line: "Bench: {n}", sit_bench: "Take a seat (sit out the first hand)", rule_winner: "the winner sits out", rule_rotate: "in turn", no_declare: "Don't declare, discard {t}",
    declare_prompt: "You may declare: discard one and show your ready hand (then you only draw and discard), or discard without declaring", frozen_note: "Declared: a drawn tile that does not win is discarded for you",
    declare_prompt_sc: "You may declare ready: sing (waits hidden) or dance (hand shown); then you only draw and discard. Or discard without declaring",
    // the settlement's words, the help sheet and the buttons' tooltips (issue 31)
    brand: "Majiang", settle_won: "{who} won", fan_total_x: "{n} fan total (×{m} the stake)", fan_total_base: "×{m} the stake", settle_drawn: "Drawn hand: nobody won", players_col: "Player", worth_times: "×{n}",
    dc_title: "Ready check at the draw", dc_ready: "waits on {w}", dc_not_ready: "not ready", dc_pig: "flower pig: still holds three suits", dc_paid: "pays the ready players",
    help: "Help", help_title: "What the buttons do", help_buttons: "Buttons", help_keys: "Keyboard shortcuts (computer)",
    key_space: "Space", key_enter: "Enter", key_arrows: "← →",
    kb_pick: "pick a tile", kb_discard: "discard the picked tile",
    tip_help: "What each button does, and the keys", tip_lang: "Switch the language", tip_mute: "Sound on or off", tip_hint: "Show discard advice and your waits",
    tip_auto: "Let the computer play for you (it only wins and discards)", tip_chat: "Send a quick phrase or an emoji", tip_dissolve: "Ask to end the match: it ends when everyone agrees",
    tip_leave: "Back to the lobby (auto-play plays for you meanwhile)", tip_win: "Win on this tile", tip_zimo: "Win on the tile you drew", tip_pong: "Pong: take this tile with your pair",
    tip_kong: "Kong: four alike, then draw a tile", tip_concealed_kong: "Concealed kong: four alike in your hand, then draw", tip_added_kong: "Added kong: put the fourth on your pong",
    tip_pass: "Let this tile go", tip_declare: "Declare ready, hand shown: then you only draw and discard", tip_sing: "Declare ready, hand hidden: then you only draw and discard",
    tip_no_declare: "Discard this tile without declaring", tip_exchange: "Pass the three picked tiles on", tip_void: "Void suit: every tile of it must go",
    tip_ready: "Ready for the next hand", tip_settle: "This hand's settlement again", tip_rematch: "A new match with the same rules and seats", tip_lobby: "Back to the lobby",
    tip_close: "Close this window", tip_discard: "Tap a tile, tap it again to discard",
    // the table: the tiles received by the exchange
    recv_clockwise: "CW", recv_counterclockwise: "CCW", recv_across: "across",
    recv_clockwise_long: "passed clockwise (from the next seat)", recv_counterclockwise_long: "passed counter-clockwise (from the previous seat)", recv_across_long: "passed across",
    review: "Review",
  },
};
// Rule options, their choices and presets are said from the games' declarations (games.js), which
// give this module the one name it needs: an option's, in a refusal.
/** @type {Map<string, {zh: string, en: string} | null>} an option's label by its name (null: it has none) */
const OPTION_LABELS = new Map();
/** The options the games declare (games.js, each time the catalogue comes): the first of a name is said. @param {{name: string, label?: {zh: string, en: string}}[]} options */
export function nameOptions(options) {
  OPTION_LABELS.clear();
  for (const o of options) if (!OPTION_LABELS.has(o.name)) OPTION_LABELS.set(o.name, o.label || null);
}
/** @param {string} name @returns {string | null} the option's label in the page's language; null: no game has it */
function optionName(name) {
  if (!OPTION_LABELS.has(name)) return null;
  const l = OPTION_LABELS.get(name);
  return l ? (lang === "en" ? l.en : l.zh) : name;
}

// The server's refusals, said in the page's language (the server speaks English to scripts). A
// refusal carries a stable code (and parameters); the page looks the code up here and never reads
// the English words.
/** @type {Record<string, [string, string]>} code → [zh, en] */
const ERROR_CODES = {
  "request.other_origin": ["不接受来自其他网站的请求", "Requests from other sites are refused"],
  "request.not_json": ["请求格式不对 (需要 JSON)", "Send JSON"],
  "request.bad_json": ["请求内容不是有效的 JSON", "The request is not valid JSON"],
  "request.not_object": ["请求内容格式不对", "The request must be a JSON object"],
  "request.too_large": ["请求内容太大", "The request is too large"],
  "request.bad_host": ["这个服务器不接受这个地址", "This server does not answer to that address"],
  "request.invalid": ["请求有误: {fields}", "Bad {fields}"],
  "request.refused": ["操作未被接受", "That was refused"],
  "request.no_route": ["没有这个页面", "Not found"],
  "request.bad_method": ["不支持这种请求", "Method not allowed"],
  "tile.invalid": ["牌的写法不对 (例如 5p, 7z)", "A tile is written like 5p or 7z"],
  "hand.invalid": ["这手牌无法分析", "That hand cannot be analysed"],
  "number.out_of_range": ["{field} 必须是 {lo} 到 {hi} 的整数", "{field} must be a whole number from {lo} to {hi}"],
  "player.unknown": ["请先保存昵称", "Save your name first"],
  "player.unknown_token": ["找不到这个玩家, 请重新保存昵称", "Unknown player: save your name again"],
  "name.not_text": ["昵称是 1 到 {max} 个字", "A name has 1 to {max} characters"],
  "name.bad_length": ["昵称是 1 到 {max} 个字", "A name has 1 to {max} characters"],
  "name.not_printable": ["昵称不能有控制字符", "A name is printable text (no control characters)"],
  "name.blank": ["昵称不能只有空格", "A name needs letters or signs that show"],
  "room.not_found": ["没有这个房间", "No such room"],
  "room.bad_variant": ["没有这个玩法", "No such game"],
  "room.bad_preset": ["没有这个预设规则", "No such preset"],
  "rules.bad_options": ["规则选项格式不对", "The rule options are malformed"],
  "rules.bad_option_name": ["没有这个规则选项", "No such rule option"],
  "rules.bad_option_value": ["规则选项的值无效", "A rule option has a value the rules do not accept"],
  "rules.invalid_option": ["规则选项的值无效", "A rule option has a value the rules do not accept"],
  "room.bad_bots": ["没有这种机器人", "No such bot"],
  "room.bad_people": ["这个玩法只能 {plays} 人", "This game seats {plays}"],
  "room.bad_people_four": ["这个玩法是 {plays} 人或 4 人 (每局一人休息)", "This game seats {plays}, or 4 (one sits out each hand)"],
  "room.bad_sit_out": ["休息方式无效", "No such way to sit out"],
  "room.bad_create_key": ["创建请求无效, 请刷新页面", "Bad create request: reload the page"],
  "timers.not_object": ["计时设置格式不对", "The timers are malformed"],
  "timers.unknown": ["没有这个计时设置", "No such timer"],
  "timers.out_of_range": ["计时必须是 {lo} 到 {hi} 秒", "A timer is from {lo} to {hi} seconds"],
  "timers.bad_pace": ["没有这种节奏", "No such pace"],
  "seat.none_left": ["座位都满了, 可以观战", "Every seat is taken: you can watch"],
  "seat.table_full": ["房间已满", "The table is full"],
  "seat.spectator": ["观战者不能操作", "Spectators cannot play"],
  "match.over": ["对局已经结束", "The match is over"],
  "match.not_over": ["对局还没结束", "The match is not over yet"],
  "match.not_started": ["对局还没开始", "The match has not started"],
  "start.not_host": ["只有房主可以开始", "Only the host can start"],
  "ready.not_seated": ["入座后才能准备", "Take a seat to get ready"],
  "ready.no_next_hand": ["没有下一局可以准备", "There is no next hand"],
  "rematch.not_player": ["只有这局的玩家可以再来一局", "Only this match's players can ask for a rematch"],
  "hand.over": ["这一局已经结束", "The hand is over"],
  "dissolve.not_playing": ["只有进行中的对局可以解散", "Only a match in play can be dissolved"],
  "dissolve.no_vote": ["没有进行中的解散投票", "There is no vote to answer"],
  "dissolve.too_soon": ["你刚申请过解散, 请稍后再试", "You asked a moment ago: wait a little"],
  "chat.unknown_phrase": ["没有这句快捷语", "No such phrase"],
  "action.bad_seq": ["操作已过期, 请重试", "That move is out of date: try again"],
  "action.malformed": ["操作格式不对", "That move is malformed"],
  "action.bad_tile": ["操作里的牌不对", "A tile in that move is wrong"],
  "action.bad_tiles": ["操作里的牌不对 (最多三张)", "The tiles in that move are wrong (up to three)"],
  "action.bad_tile_name": ["操作里的牌不对", "A tile in that move is wrong"],
  "action.no_decision": ["现在不是你操作的时候", "It is not your move now"],
  "action.stale": ["", ""],  // a press that raced an update: nothing to tell
  "action.illegal": ["这一步不合规则", "That move is not allowed"],
  "action.not_applied": ["服务器没能执行这一步, 请再试", "The server could not apply that: try again"],
  "message.binary": ["消息格式不对", "Messages are JSON text"],
  "message.too_large": ["消息太长", "The message is too long"],
  "message.not_object": ["消息格式不对", "Messages are JSON objects"],
  "message.unknown_type": ["不认识的消息", "Unknown message"],
  "message.invalid": ["消息内容有误", "The message has a bad field"],
  "rate.too_many_messages": ["操作太快了, 请慢一点", "Too fast: slow down"],
  "rate.new_players": ["这个地址新建玩家太多, 请稍后再试", "Too many new players from here: try later"],
  "rate.room_code_misses": ["输错房间号太多次, 请稍后再试", "Too many unknown room codes from here: try later"],
  "rate.rooms_hosted": ["你开的未结束房间太多 ({unfinished}), 先打完一个", "You host {unfinished} unfinished rooms: finish one first"],
  "rate.replays": ["回放看得太快了, 请稍后再试", "Too many replays: try again in a minute"],
  "rate.costly": ["请求太频繁了, 请稍后再试", "Too many replays or analyses: try again in a minute"],
  "rate.reviews": ["每分钟最多复盘 {per_minute} 局", "At most {per_minute} reviews a minute"],
  "history.bad_before": ["战绩翻页有误", "Bad page of the history"],
  "replay.not_found": ["没有这一局的回放", "No replay of that hand"],
  "review.hand_not_finished": ["这一局结束后才能复盘", "A hand is reviewed once it ends"],
  "review.not_your_seat": ["只有这一局的玩家能复盘自己的座位", "Only a player of this hand reviews it, their own seat"],
  "review.not_requested": ["还没有复盘", "Not asked for yet"],
  "review.failed": ["复盘没能完成, 请再试", "The review failed: try again"],
  "analyze.bad_request": ["分析请求有误", "Bad analysis request"],
  "file.not_found": ["没有这个文件", "No such file"],
  "table.moving": ["牌桌正在换服务器, 请稍候再试", "The table is moving between servers: try again in a moment"],
  "table.moving_reconnect": ["牌桌正在换服务器, 正在重连", "The table is moving between servers: reconnecting"],
  "store.unavailable": ["服务器暂时无法保存, 请再试一次", "The server could not store that: try again"],
  "store.not_stored": ["服务器暂时无法保存, 请再试一次", "The server could not store that: try again"],
};
/**
 * A refusal as the server sends it: on a socket {type: "error", code, params, message}, over HTTP
 * {detail, code, params}; a bare string is a message of a server without codes.
 * @typedef {{code?: string | null, params?: Record<string, any> | null, message?: string | null}} Refusal
 */
/**
 * The code of a refusal (and its parameters): the server's own, else read from the English of a
 * server without codes; null when neither says.
 * @param {unknown} err a Refusal, a string, or anything a catch may hold
 * @returns {{code: string | null, params: Record<string, any>}}
 */
export function errorCode(err) {
  /** @type {Refusal} */
  const r = typeof err === "string" ? { message: err } : err && typeof err === "object" ? err : {};
  return { code: r.code || null, params: r.params || {} };
}
/** Whether a refusal is about the rule options the room form sent (the form then says so). @param {unknown} err */
export function isRulesError(err) { return (errorCode(err).code || "").startsWith("rules."); }
/**
 * A refusal in the page's language.
 * @param {unknown} err a Refusal, a string, or anything a catch may hold
 * @returns {string}
 */
export function errorText(err) {
  const m = String((typeof err === "string" ? err : err && typeof err === "object" && /** @type {Refusal} */ (err).message) || "");
  const { code, params } = errorCode(err);
  if (!code) return lang === "en" ? m : (m ? "操作未被接受" : "");  // not the server's refusal (a network error)
  const named = typeof params.option === "string" ? optionName(params.option) : null;
  if (code.startsWith("rules.") && named) return lang === "en" ? `${named}: ${params.reason || m}` : `规则选项「${named}」的值无效`;
  const said = ERROR_CODES[code];
  if (!said) return lang === "en" ? m : "操作未被接受";
  // a field the server names by its key ("hands") is said by the form's own label (局数, Hands)
  const fill = (/** @type {string} */ k) => (k === "field" && FIELDS[params[k]] ? t(FIELDS[params[k]]) : String(params[k]));
  return said[lang === "en" ? 1 : 0].replace(/\{(\w+)\}/g, (_, k) => (k in params ? fill(k) : ""));
}
/** The request fields a refusal may name (number.out_of_range), by their labels' keys. @type {Record<string, string>} */
const FIELDS = { hands: "hands", stake: "stake", people: "people" };
/** @returns {string[]} the error codes the page can say */
export function errorCodes() { return Object.keys(ERROR_CODES); }
/** @type {{getItem(k: string): string | null, setItem(k: string, v: string): void}} */
const store = typeof localStorage !== "undefined" ? localStorage : { getItem: () => null, setItem: () => {} };
/**
 * The page's first language: the player's own choice when made here, else the browser's (the first
 * of navigator.languages that is Chinese or English), else Chinese.
 * @param {string | null} chosen @param {readonly string[] | undefined} wanted
 * @returns {"zh" | "en"}
 */
export function firstLang(chosen, wanted) {
  if (chosen === "en" || chosen === "zh") return chosen;
  for (const l of wanted || []) {
    if (/^zh\b/i.test(l)) return "zh";
    if (/^en\b/i.test(l)) return "en";
  }
  return "zh";
}
/** @type {"zh" | "en"} */
let lang = firstLang(store.getItem("majiang.lang"), typeof navigator !== "undefined" ? navigator.languages : undefined);
/**
 * A message of the catalogue in the page's language ({name} filled from params); the key itself when unknown.
 * @param {string} key
 * @param {Record<string, any>} [params]
 * @returns {string}
 */
export function t(key, params) {
  let s = (M[lang][key] != null ? M[lang][key] : M.zh[key]);
  if (s == null) return key;
  if (params) s = s.replace(/\{(\w+)\}/g, (/** @type {string} */ _, /** @type {string} */ k) => (params[k] == null ? "" : String(params[k])));
  return s;
}
/** @param {string | null | undefined} tile */
export function tileName(tile) {
  if (!tile || !/^[1-9][mpsz]$/.test(tile)) return lang === "en" ? "a tile" : "牌";
  const r = tile[0], s = tile[1];
  if (s === "z") return lang === "en" ? `${DRAGON_ZH[r]} (${DRAGON_EN[r]})` : DRAGON_ZH[r];
  return lang === "en" ? `${NUM[+r - 1]}${SUIT_ZH[s]} (${r} ${SUIT_EN[s]})` : NUM[+r - 1] + SUIT_ZH[s];
}
// Several tiles: "二五八筒" style when one suit, else names joined.
/** @param {string[] | null | undefined} list */
export function tilesWords(list) {
  if (!list || !list.length) return "";
  const suits = new Set(list.map((x) => x[1]));
  if (suits.size === 1 && !suits.has("z")) {
    const s = list[0][1];
    const zh = list.map((x) => NUM[+x[0] - 1]).join("") + SUIT_ZH[s];
    return lang === "en" ? `${zh} (${list.map((x) => x[0]).join(" ")} ${SUIT_EN[s]})` : zh;
  }
  return list.map(tileName).join(lang === "en" ? ", " : "、");
}
// English says the suit, glossed with its mark as the tiles show it: "Characters (万)"
/** @param {string} s */
export function suitName(s) { return lang === "en" ? `${SUIT_EN[s]} (${SUIT_ZH[s]})` : SUIT_ZH[s]; }
/** A suit's character alone (万 筒 条), in either language: a badge's mark, coloured as the suit's tiles. @param {string} s */
export function suitMark(s) { return SUIT_ZH[s]; }
// Payment reasons and the words of a payment's detail as the engines write them (Chinese, the game's
// own terms): English says what each is, in English only.
/** @type {Record<string, string>} */
const REASON = { 自摸: "self-draw", 点炮: "discarded the winning tile", 抢杠: "robbed kong", 包胡: "pays both shares, declared hand",
  点杠: "kong on a discard", 直杠: "direct kong", 暗杠: "concealed kong", 加杠: "added kong", 蓄杠: "added kong",
  呼叫转移: "call transfer", 退杠: "kong money returned", 花猪: "flower pig", 大叫: "not ready at the draw",
  亮倒荒庄: "declared hand at a draw", 漂: "float", 数坎: "concealed triplets", 买马: "horse" };
/** @type {Record<string, string>} */
const DETAIL = { 刮风: "wind (exposed kong)", 下雨: "rain (concealed kong)", 查花猪: "three suits at the draw", 查大叫: "ready hands checked at the draw",
  自摸加底: "self-draw bonus", 满: "capped", 坎: "triplet(s)", 马: "horse", 杠上杠: "kong after kong", 杠上炮: "discard after a kong" };
// (the settlement's English is English only: the Chinese term is the Chinese page's)
/** @param {string} r */
export function reasonName(r) { return lang === "en" && REASON[r] ? REASON[r] : r; }
// fans: a fan's Chinese name → its English, from the settlement's wins
/** @param {string | null | undefined} d @param {Record<string, string>} [fans] */
export function paymentDetail(d, fans) {
  if (!d) return "";
  const note = /[A-Za-z]{2}/.test(d);  // an English-only note of the engine ("杠上炮: kong money refunded")
  if (lang !== "en" && note) return "";
  const words = d.split(" ").filter(Boolean);
  // English terms of several words would run together ("pure suit four of a kind"): a comma parts
  // them, but not a count before its term ("3 triplet(s)") nor a ×N or tile after it
  const bound = (/** @type {number} */ i) => /^[×x]\d+$|^[1-9][mpsz]$/.test(words[i]) || /^\d+$/.test(words[i - 1]);
  return words.map((w, i) => {
    const bare = w.replace(/[:：]$/, ""), tail = w.slice(bare.length);
    let said = w;
    if (/^[1-9][mpsz]$/.test(bare)) said = tileName(bare) + tail;
    else if (lang === "en" && fans && fans[bare]) said = fans[bare] + tail;
    else if (lang === "en" && DETAIL[bare]) said = DETAIL[bare] + tail;
    return i === 0 ? said : (lang === "en" && !note && !bound(i) ? ", " : " ") + said;
  }).join("");
}
/**
 * A payment's reason and detail as one line: "点炮 清一色 根"; in English the reason, a colon and
 * the detail ("discarded the winning tile: pure suit, four of a kind (root)"), never run together.
 * @param {string} reason @param {string | null | undefined} detail @param {Record<string, string>} [fans]
 */
export function paymentWhy(reason, detail, fans) {
  const d = paymentDetail(detail || "", fans);
  return d ? `${reasonName(reason)}${lang === "en" ? ": " : " "}${d}` : reasonName(reason);
}
/** @param {{name: string, english?: string}} f */
export function fanName(f) { return lang === "en" && f.english ? f.english : f.name; }
/** @param {string} l */
export function setLang(l) { lang = l === "en" ? "en" : "zh"; store.setItem("majiang.lang", lang); }
/** The catalogue as one object; `lang` is read live (the toggle changes it). */
export const I18N = { t, errorText, errorCode, isRulesError, tileName, tilesWords, suitName, suitMark,
  fanName, reasonName, paymentDetail, paymentWhy, setLang,
  get lang() { return lang; },
  keys: (/** @type {string} */ l) => Object.keys(/** @type {Record<string, object>} */ (M)[l] || {}) };
