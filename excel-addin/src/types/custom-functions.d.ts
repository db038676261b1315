// The parts of the custom functions runtime (loaded by office.js in the shared runtime) that the
// add-in uses. @types/custom-functions-runtime is not among the project's dependencies.
declare namespace CustomFunctions {
  enum ErrorCode {
    invalidValue = '#VALUE!',
    notAvailable = '#N/A',
    divisionByZero = '#DIV/0!',
    invalidNumber = '#NUM!',
    nullReference = '#NULL!',
    invalidName = '#NAME?',
    invalidReference = '#REF!',
  }
  class Error {
    constructor(errorCode: ErrorCode, errorMessage?: string);
    code: ErrorCode;
    message?: string;
  }
  function associate(id: string, functionObject: (...args: never[]) => unknown): void;
}
