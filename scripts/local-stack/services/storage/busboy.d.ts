/** Minimal types for busboy 1.x (the parts this service uses). */
declare module 'busboy' {
  import type { IncomingHttpHeaders } from 'node:http';
  import type { Readable, Writable } from 'node:stream';

  namespace busboy {
    interface Limits {
      fieldNameSize?: number;
      fieldSize?: number;
      fields?: number;
      fileSize?: number;
      files?: number;
      parts?: number;
      headerPairs?: number;
    }
    interface Config {
      headers: IncomingHttpHeaders;
      limits?: Limits;
      defParamCharset?: string;
    }
    interface FileInfo {
      filename: string | undefined;
      encoding: string;
      mimeType: string;
    }
    interface FileStream extends Readable {
      truncated: boolean;
    }
    interface Busboy extends Writable {
      on(event: 'file', listener: (name: string, stream: FileStream, info: FileInfo) => void): this;
      on(event: 'field', listener: (name: string, value: string, info: unknown) => void): this;
      on(event: 'close' | 'finish' | 'partsLimit' | 'filesLimit' | 'fieldsLimit', listener: () => void): this;
      on(event: 'error', listener: (err: Error) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }
  function busboy(config: busboy.Config): busboy.Busboy;
  export default busboy;
}
