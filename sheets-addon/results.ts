/** The API's answers as the add-on's functions see them. */
import type { DutyResult } from '../shared/order.js';
import type { LineError } from './api.js';

export type { DutyResult };
/** One answer of POST /duty/batch. */
export type Outcome = DutyResult | { error: LineError };
