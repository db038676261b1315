/** GET /hts/{code}: one line of the schedule. */
import type { Tariff } from '../../shared/index.js';
import { recordJson } from '../serialize.js';
import { onRevisions } from './revisions.js';
import { GET, type Route } from './route.js';

/** `date`: the record as the revision in force on that date has it (docs/data.md). */
export const htsRoute = (tariff: Tariff): Route => ({
  path: '/api/v1/hts/*',
  methods: GET,
  gate: 'key',
  params: ['date'],
  run: (res) => {
    const [code, date] = [htsCode(res.rawPath), res.query?.date];
    return onRevisions(tariff, [[date, code]], (built) => recordJson(tariff.record(code, date, built)));
  },
});

/** The code of /api/v1/hts/{code}: the last segment as sent, percent-decoded once. */
function htsCode(rawPath: string): string {
  const segment = rawPath.slice(rawPath.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
