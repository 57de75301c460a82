// `node --import ./register.mjs`: resolves `electron` and `electron-updater` to the stand-ins next to this file,
// so the real main process (main/index.ts) runs under plain Node. Used by tests/unit/main-wiring.test.ts.
import { register } from 'node:module';

register(new URL('./hooks.mjs', import.meta.url));
