// The console's import of one file of a Parse or Moralis export. Its answer is a stream of
// lines (NDJSON), so the console shows progress on a large file: progress lines, then the
// report, or an error when the import stops.

import { errorCodes } from './error-codes.ts'
import { openClassRow } from './console-data.ts'

const count = { type: 'integer' } as const

const importRefusal = {
  type: 'object',
  properties: {
    line: { ...count, description: 'Line of the file the row starts on' },
    objectId: { type: 'string' },
    field: { type: 'string', description: 'The field at fault, when one is' },
    reason: { type: 'string', description: 'What is wrong and what to do' },
  },
  required: ['line', 'reason'],
  additionalProperties: false,
} as const

const importedFileField = {
  type: 'object',
  properties: {
    line: count,
    objectId: { type: 'string' },
    field: { type: 'string' },
    name: { type: 'string' },
    url: { type: 'string' },
  },
  required: ['line', 'objectId', 'field', 'name', 'url'],
  additionalProperties: false,
} as const

const importReport = {
  type: 'object',
  properties: {
    file: { type: 'string', description: "The file's name (`Post.json`, `_Join:likes:Post.json`)" },
    className: { type: 'string' },
    format: { type: 'string', enum: ['dashboard', 'legacy'] },
    rows: count,
    imported: count,
    unchanged: {
      ...count,
      description: 'Already there (same objectId, or the same relation member): left as they are',
    },
    refused: { type: 'array', items: importRefusal },
    files: {
      type: 'array',
      items: importedFileField,
      description: 'File fields, kept as references to where they are: fetch and re-upload them',
    },
    notes: {
      type: 'array',
      items: { type: 'string' },
      description: 'What was imported differently from the file, said once per file',
    },
    withoutPassword: {
      ...count,
      description: '`_User` rows imported without a password hash: they sign in once they reset it',
    },
    openClasses: {
      type: 'array',
      items: openClassRow,
      description: 'Classes anyone signed out may create in or write once imported',
    },
  },
  required: [
    'file',
    'className',
    'format',
    'rows',
    'imported',
    'unchanged',
    'refused',
    'files',
    'notes',
  ],
  additionalProperties: false,
} as const

const importProgress = {
  type: 'object',
  properties: { className: { type: 'string' }, done: count, total: count },
  required: ['className', 'done', 'total'],
  additionalProperties: false,
} as const

/** One line of the import's answer. */
export const consoleImportLineSchema = {
  oneOf: [
    {
      type: 'object',
      properties: { progress: importProgress },
      required: ['progress'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { report: importReport },
      required: ['report'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        error: { type: 'string' },
        code: {
          type: 'string',
          enum: errorCodes,
          description: 'Present when the import was refused rather than failed',
        },
      },
      required: ['error'],
      additionalProperties: false,
    },
  ],
} as const

export const imports = {
  'POST /api/admin/import/:className': {
    params: {
      type: 'object',
      properties: {
        className: {
          type: 'string',
          minLength: 1,
          maxLength: 140,
          description: "The file's name without `.json` (`Post`, `_User`, `_Join:likes:Post`)",
        },
      },
      required: ['className'],
    },
    answer: {
      description:
        'Lines of JSON (application/x-ndjson), each a consoleImportLineSchema: progress, then the report or an error',
    },
  },
} as const
