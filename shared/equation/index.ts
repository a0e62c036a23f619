export * from './ast.ts';
export * from './parser.ts';
export * from './print.ts';
export * from './substitute.ts';
