// The consumer as a web page script (bundled): the directory client called from this page's origin against a
// directory on another origin, which must answer with CORS headers for the browser to hand over the answer.
import { directoryCalls } from './calls.mjs';
import { config } from './config.mjs';

window.consumerResult = directoryCalls(config.directory.baseUrl, config.directory.lookup);
