// The page's session with the server, one object every module of the page reads and writes: the
// connection, the player, the tables listed, the table shown and what is being resumed of it.

export const NAME = "cardroom.name";

export const state = {
  ws: null,
  welcomed: false,
  player: null,
  name: null,
  tables: new Map(),
  tablePage: 0, // the table list comes in pages (docs/protocol.md): the last one we have, and how many
  tablePages: 1,
  current: null, // the id of the table shown
  room: null, // its last full state (the `table` message), with `view` kept up to date
  lastV: {}, // table id -> last version seen
  resuming: new Set(),
  held: new Map(), // table id -> the events that came while resuming it, taken in order at `resumed`
  replaying: new Set(), // tables whose missed batches are coming: logged, not said (issue 23)
  away: null, // the server's `away` line, until its table's resync is shown
  needResume: new Set(),
  lobbyChat: [],
  retry: 0,
  lostAt: null, // when the connection was lost (performance.now()), until the next welcome
  triedAt: null, // when the last connection was tried, and when the last welcome came (performance.now())
  welcomedAt: null,
  onlineAt: null, // when the browser last said it is back online
  beat: null, // the heartbeat of the connection in use (net.js)
  retryTimer: 0,
  stop: false,
  ref: 0,
  pendingQuery: null,
  account: null, // {id, name} when logged in (the session is an HttpOnly cookie)
  rewatching: null, // the table we watched, asked to watch again after a reconnect
  moving: null, // the websocket a `move` opened, until its welcome (connection.js `follow`)
  ending: false, // the account's sessions are being ended (account.js): the socket's close is expected
  invite: null, // {table, code}: the table the page's address named (invite.js), joined once welcomed
  inviting: null, // that invitation ({table, code}) once sent, until the table's state comes
  burritoUntil: 0, // a burrito's catch window: the alert says it until then (performance.now())
};
