import { record } from './electron.mjs';

export default {
  get autoUpdater() {
    record('updater-created');
    throw new Error('the updater must not be created outside a packaged app');
  },
};
