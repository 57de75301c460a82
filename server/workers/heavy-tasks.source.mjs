// The heavy pool's thread module when the server runs from source (pool.ts): a worker thread does not inherit tsx's
// loader, so it registers it here before importing the TypeScript tasks. A build runs heavy-tasks.js directly.
import { register } from 'tsx/esm/api';

register();
const tasks = await import('./heavy-tasks.ts');

export default tasks.default;
