// The one place the renderer reaches into the shared contract: types only, nothing of the server is bundled.
export type * from '../../../contract/index.js';
export type { DesktopBridge, ServerStatus } from '../../../main/ipc/bridge.js';
