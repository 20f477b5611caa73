/** The input cannot be indexed at all (wrong format, empty, truncated, corrupt): the CLI exits non-zero. */
export class UnusableInputError extends Error {}

/** The file ended inside a quoted field, mid-record or mid-gzip-stream: it was cut short. */
export class TruncatedFileError extends UnusableInputError {}
