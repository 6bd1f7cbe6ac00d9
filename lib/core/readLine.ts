/**
 * Reading one answer from a command's input: the prompts of `flush`, `collectstatic` and the
 * like read a line with it.
 */

/** One line of input (without its line ending); '' when the input ends first. */
export function readLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let buffer = '';
    const finish = (value: string): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.pause?.();
      resolve(value);
    };
    const onData = (chunk: Buffer | string): void => {
      buffer += chunk.toString();
      const newline = buffer.search(/\r?\n/);
      if (newline >= 0) finish(buffer.slice(0, newline));
    };
    const onEnd = (): void => finish(buffer);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.resume?.();
  });
}
