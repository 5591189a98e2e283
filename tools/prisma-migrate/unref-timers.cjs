// The 6.19 wasm schema engine leaves long timers armed after a command finishes, so the CLI
// would idle for up to a minute before exiting; long timers must not keep the process alive.
const setTimeoutOriginal = global.setTimeout;
global.setTimeout = function (fn, ms, ...args) {
  const timer = setTimeoutOriginal(fn, ms, ...args);
  if (ms >= 10000 && timer && typeof timer.unref === "function") timer.unref();
  return timer;
};
