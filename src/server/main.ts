/** The site's entry point: `npm start` runs the built copy of this file. */
import { readConfigOrExit, startServer } from './server.js';

await startServer(readConfigOrExit());
