/**
 * zod, set up once for the whole site: every schema, on the server and in the browser, imports
 * `z` from here, so the setting below is made before the first schema is built.
 *
 * jitless: zod would otherwise compile a faster parser for each object schema with
 * `new Function`, first probing whether it may. The pages' Content Security Policy forbids
 * eval, and Chromium reports even a caught probe as a violation (`script-src eval`) on every
 * page that checks a form. The interpreted parser is as correct, and the bodies it reads are
 * small.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
