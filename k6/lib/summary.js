// The one handleSummary every perflab k6 script re-exports (`export { handleSummary } from './lib/summary.js'`):
//   SUMMARY=<path>  the full end-of-test summary as JSON (what the A/B runner and the experiments read)
//   otherwise       k6's own text summary on stdout (returning nothing makes k6 print it; the text renderer
//                   of jslib.k6.io cannot be fetched offline, and k6 keeps its built-in one to itself)
// A script that reports one line instead (an experiment greps it) registers it with summaryLine(fn); one that
// adds its own numbers to the JSON registers summaryFields(fn), whose fields sit beside k6's at the top.
let lineOf = null;
let fieldsOf = null;

export function summaryLine(fn) {
  lineOf = fn;
}

export function summaryFields(fn) {
  fieldsOf = fn;
}

export function handleSummary(data) {
  const out = {};
  if (lineOf) out.stdout = lineOf(data);
  if (__ENV.SUMMARY) out[__ENV.SUMMARY] = JSON.stringify(fieldsOf ? Object.assign({}, data, fieldsOf(data)) : data, null, 1);
  return Object.keys(out).length > 0 ? out : undefined;
}
