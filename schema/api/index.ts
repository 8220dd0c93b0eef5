export * from './common';
export * from './profile';
export * from './waitlist';
export * from './options';
export * from './runtimeConfig';
export * from './templates';
export * from './directory';
export * from './contacts';
