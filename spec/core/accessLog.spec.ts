import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PassThrough } from 'node:stream';
import { BufferedLog } from '../../lib/core/accessLog';

const log = suite('access log: buffered');

function collector(): { stream: PassThrough; writes: string[] } {
  const stream = new PassThrough();
  const writes: string[] = [];
  stream.on('data', (chunk: Buffer) => writes.push(chunk.toString()));
  return { stream, writes };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

log('lines of one turn of the event loop go out in one write, after it', async () => {
  const { stream, writes } = collector();
  const buffered = new BufferedLog(() => stream);
  buffered.write('a');
  buffered.write('b');
  buffered.write('c');
  assert.equal(writes, []);
  await turn();
  await turn();
  assert.equal(writes, ['a\nb\nc\n']);
  buffered.write('d');
  await turn();
  await turn();
  assert.equal(writes, ['a\nb\nc\n', 'd\n']);
});

log('flush() writes what is queued at once; nothing queued writes nothing', async () => {
  const { stream, writes } = collector();
  const buffered = new BufferedLog(() => stream);
  buffered.flush();
  buffered.write('now');
  buffered.flush();
  await turn();
  await turn();
  assert.equal(writes, ['now\n']);
});

log.run();
