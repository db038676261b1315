/** How the add-on shows what the API answered, shared by the custom functions and the order costing. */
import type { DutyResult } from '../shared/order.js';
import type { LineError } from './api.js';

export type { DutyResult };
/** One answer of POST /duty/batch. */
export type Outcome = DutyResult | { error: LineError };

/** Why the API left `duty` null (a specific or compound rate without a quantity, a text rate, no rate). */
export function dutyNotComputed(r: DutyResult): string {
  const reason = r.notes.find((n) => /not computed|to compute the duty|cannot be converted|no rate of duty/i.test(n));
  if (reason) return reason;
  return r.specific_rate
    ? `The rate "${r.duty_rate}" is specific or compound: the duty needs a quantity.`
    : `The duty is not computed for the rate ${r.duty_rate === null ? '(none printed)' : `"${r.duty_rate}"`}.`;
}
