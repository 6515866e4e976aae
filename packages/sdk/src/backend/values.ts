// The value types an object's fields can hold besides JSON. `encode()`
// turns them into their wire forms; `decode()` turns wire forms back into these classes.

/** Local content of a file that has not been uploaded yet. */
export type FileContent = Blob | ArrayBuffer | Uint8Array | string

/**
 * A file: unsaved (content, no `url`) until `saveFile` uploads it; saved files carry the `name`
 * the server gave them and their `url`.
 */
export class PorticoFile {
  readonly name: string
  readonly url: string | undefined
  readonly content: FileContent | undefined
  readonly contentType: string | undefined
  constructor(parameters: {
    name: string
    url?: string | undefined
    content?: FileContent | undefined
    contentType?: string | undefined
  }) {
    this.name = parameters.name
    this.url = parameters.url
    this.content = parameters.content
    this.contentType = parameters.contentType
  }
  /** True once the file has been uploaded and has a URL. */
  get saved(): boolean {
    return this.url !== undefined
  }
}

/**
 * An unsaved file with its content, to pass to `saveFile`.
 * @example createFile('avatar.png', blob) // type from the Blob
 * @example createFile('notes.txt', 'hello', 'text/plain')
 */
export function createFile(name: string, content: FileContent, contentType?: string): PorticoFile {
  return new PorticoFile({ name, content, contentType })
}

/** A reference to another object, stored as `{ __type: "Pointer", className, objectId }`. */
export class Pointer {
  constructor(
    readonly className: string,
    readonly objectId: string,
  ) {}
}

/** A pointer to a saved object. */
export function pointerTo(object: { className: string; objectId: string }): Pointer {
  return new Pointer(object.className, object.objectId)
}
