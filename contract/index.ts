export * from './envelope.js';
export * from './users.js';
export * from './catalog.js';
export * from './notifications.js';
export * from './system.js';
