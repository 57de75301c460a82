import type { StreamChat } from './llm.js';

/** Implemented by the AI domain: see StreamChat in ./llm.ts. */
export const streamChat: StreamChat = async () => {
  throw new Error('streamChat: implemented by the AI domain');
};
