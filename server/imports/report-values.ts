// A row error echoes the cell it is about: a 1 MB cell would be sent back whole in every report (and in the 400's
// message). Values are clipped to 200 characters and messages, which may quote them, to 300.
import type { BulkImportRowError } from '../../contract/imports.js';
import { clip } from '../http/plain-text.js';

const clipError = (e: BulkImportRowError): BulkImportRowError => ({ ...e, error: clip(e.error, 300), ...(e.value !== undefined && { value: clip(e.value, 200) }) });

/** The report with its row errors clipped (everything else as it is). */
export const withClippedErrors = <R extends { errors: BulkImportRowError[] }>(report: R): R => ({ ...report, errors: report.errors.map(clipError) });
