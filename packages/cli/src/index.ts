export { main } from './main.js';
export { processIo, type Io } from './io.js';
