/** asl-validator 4 ships CommonJS without types: `module.exports = validator`. */
declare module 'asl-validator' {
  interface ValidationResult {
    isValid: boolean;
    errors: { message: string }[];
    errorsText: (separator?: string) => string;
  }
  function validator(definition: object, options?: { checkPaths: boolean; checkArn: boolean }): ValidationResult;
  export = validator;
}
