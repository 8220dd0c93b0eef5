/**
 * A minimal streaming ZIP writer (PKWARE APPNOTE 6.3: deflate, data descriptors, UTF-8 names, no ZIP64) over
 * Node's zlib: no zip package is installed, and the data export needs only this. Each file's content
 * comes as chunks through one deflate stream per file (so the dictionary spans the whole file), and its
 * output is passed on as zlib gives it. Sizes and CRC-32 follow each file in its data descriptor, so
 * nothing is held but zlib's window and the chunk at hand.
 */
import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';

export interface ZipFile {
  /** The path inside the archive ('contacts.csv'). */
  name: string;
  /** The content, a chunk at a time (text is written as UTF-8). */
  content: AsyncIterable<string | Buffer> | Iterable<string | Buffer>;
}

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL = 0x06054b50;
/** Bit 3: sizes and CRC in the data descriptor; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;
const DEFLATE = 8;
const VERSION = 20;

/** MS-DOS date and time of `at` (local fields as UTC: the archive carries no zone). */
function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((Math.max(at.getUTCFullYear(), 1980) - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** The archive of `files`, as chunks in order. */
export async function* zipStream(files: Iterable<ZipFile>, modifiedAt: Date): AsyncGenerator<Buffer> {
  const { time, date } = dosTime(modifiedAt);
  const written: Written[] = [];
  let offset = 0;
  const emit = (chunk: Buffer) => {
    offset += chunk.length;
    return chunk;
  };
  for (const file of files) {
    const name = Buffer.from(file.name, 'utf8');
    const entry: Written = { name, crc: 0, compressed: 0, size: 0, offset };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL_HEADER, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    header.writeUInt16LE(name.length, 26);
    yield emit(Buffer.concat([header, name]));
    const deflate = createDeflateRaw();
    const deflated: Buffer[] = [];
    deflate.on('data', (chunk: Buffer) => deflated.push(chunk));
    const ended = once(deflate, 'end');
    const drainDeflated = function* () {
      for (const chunk of deflated.splice(0)) {
        entry.compressed += chunk.length;
        yield emit(chunk);
      }
    };
    for await (const piece of file.content) {
      const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
      if (bytes.length === 0) continue;
      entry.crc = crc32(bytes, entry.crc);
      entry.size += bytes.length;
      if (!deflate.write(bytes)) await once(deflate, 'drain');
      yield* drainDeflated();
    }
    deflate.end();
    await ended;
    yield* drainDeflated();
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
    descriptor.writeUInt32LE(entry.crc >>> 0, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    yield emit(descriptor);
    written.push(entry);
  }
  const centralStart = offset;
  for (const entry of written) {
    const header = Buffer.alloc(46);
    header.writeUInt32LE(CENTRAL_HEADER, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(VERSION, 6);
    header.writeUInt16LE(FLAGS, 8);
    header.writeUInt16LE(DEFLATE, 10);
    header.writeUInt16LE(time, 12);
    header.writeUInt16LE(date, 14);
    header.writeUInt32LE(entry.crc >>> 0, 16);
    header.writeUInt32LE(entry.compressed, 20);
    header.writeUInt32LE(entry.size, 24);
    header.writeUInt16LE(entry.name.length, 28);
    header.writeUInt32LE(entry.offset, 42);
    yield emit(Buffer.concat([header, entry.name]));
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL, 0);
  end.writeUInt16LE(written.length, 8);
  end.writeUInt16LE(written.length, 10);
  end.writeUInt32LE(offset - centralStart, 12);
  end.writeUInt32LE(centralStart, 16);
  yield emit(end);
}
