export * from './accounting.ts';
export * from './cache.ts';
export * from './client.ts';
export * from './settings.ts';
