// Loaded (--import) into the fake's utility processes: Electron's process.parentPort, over the IPC channel of
// child_process.fork, so main/server-host.ts runs the code path it runs under Electron.
process.parentPort = {
  on(event, listener) {
    if (event === 'message') process.on('message', (data) => listener({ data }));
    return this;
  },
  postMessage(message) {
    process.send(message);
  },
};
