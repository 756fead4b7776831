// Times as answers carry them: one helper for every layer, kept in lib/.
export { isoTime, isoTimeOrNull } from '../lib/iso-time.js';
