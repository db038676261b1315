/**
 * The one error type the engine throws for bad input. `code` is the API's stable error code;
 * `parameter` names the offending input so every caller (API, CLI, add-ins) can say what was wrong.
 */
export type InputErrorCode = 'invalid_parameter' | 'not_found';

export class InputError extends Error {
  readonly code: InputErrorCode;
  readonly parameter: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: InputErrorCode, parameter: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'InputError';
    this.code = code;
    this.parameter = parameter;
    this.details = details;
  }
}

/** The error as the API and an order line show it: `{code, message, details: {parameter, ...}}`. */
export interface ErrorBody {
  code: InputErrorCode;
  message: string;
  details: Record<string, unknown>;
}

export function errorBodyOf(e: InputError): ErrorBody {
  return { code: e.code, message: e.message, details: { parameter: e.parameter, ...e.details } };
}

export function invalid(parameter: string, message: string, details?: Record<string, unknown>): InputError {
  return new InputError('invalid_parameter', parameter, message, details);
}
