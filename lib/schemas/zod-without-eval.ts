// Pages are served with a Content-Security-Policy without 'unsafe-eval'. zod's fast path for
// objects first probes whether eval works (`new Function("")`), and the browser reports that probe
// as a CSP violation even though zod catches it. Parsing without the fast path gives the same
// results; a page that parses with zod imports this module once, for its side effect.
import { z } from "zod";

z.config({ jitless: true });
