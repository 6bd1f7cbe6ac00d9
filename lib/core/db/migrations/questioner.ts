/**
 * The questions `makemigrations` asks (Django's `MigrationQuestioner`): was this a rename,
 * what goes into existing rows for a new NOT NULL field, merge these branches? The
 * interactive questioner reads answers from the command's stdin; the non-interactive one
 * (`--noinput`) takes the safe default: no rename, no merge prompt, and stops (exit 3) rather
 * than guess a value for existing rows.
 */
import { NOW, type DefaultValue } from './fieldSpec';

/** Raised when a question has no answer without input (`makemigrations --noinput`). */
export class QuestionerAbort extends Error {
  override name = 'QuestionerAbort';
  /** The process exit status (Django exits 3). */
  readonly exitCode = 3;
}

/** What the autodetector asks. */
export interface Questioner {
  /** Was model `oldName` renamed to `newName`? */
  askRenameModel(app: string, oldName: string, newName: string): Promise<boolean>;
  /** Was field `oldName` of `model` renamed to `newName`? */
  askRenameField(app: string, model: string, oldName: string, newName: string, fieldType: string): Promise<boolean>;
  /** A one-off value for existing rows of a new NOT NULL field without default. */
  askNotNullAddition(app: string, model: string, field: string): Promise<DefaultValue>;
  /** A one-off value for NULLs of a field becoming NOT NULL (undefined: leave them, the database decides). */
  askNotNullAlteration(app: string, model: string, field: string): Promise<DefaultValue | undefined>;
  /** Write a merge migration for the app's branches? */
  askMerge(app: string): Promise<boolean>;
}

/** `--noinput`: no renames, merges go ahead, a required value stops the command. */
export class NonInteractiveQuestioner implements Questioner {
  async askRenameModel(): Promise<boolean> {
    return false;
  }

  async askRenameField(): Promise<boolean> {
    return false;
  }

  async askNotNullAddition(_app: string, model: string, field: string): Promise<DefaultValue> {
    throw new QuestionerAbort(
      `It is impossible to add a non-nullable field '${field}' to ${model.toLowerCase()} without specifying a default. ` +
        'This is because the database needs something to populate existing rows.\n' +
        'Give the field a default, make it nullable (allowNull: true), or run makemigrations without --noinput to provide a one-off default.',
    );
  }

  async askNotNullAlteration(): Promise<DefaultValue | undefined> {
    return undefined;
  }

  async askMerge(): Promise<boolean> {
    return true;
  }
}

/** Reads lines from a stream, one answer per line. */
class LineReader {
  private buffer = '';
  private ended = false;
  private waiting: (() => void) | null = null;

  constructor(input: NodeJS.ReadableStream) {
    input.on('data', (chunk: Buffer | string) => {
      this.buffer += String(chunk);
      this.waiting?.();
    });
    input.on('end', () => {
      this.ended = true;
      this.waiting?.();
    });
    input.resume();
  }

  async line(): Promise<string | null> {
    for (;;) {
      const newline = this.buffer.indexOf('\n');
      if (newline >= 0) {
        const line = this.buffer.slice(0, newline).replace(/\r$/, '');
        this.buffer = this.buffer.slice(newline + 1);
        return line;
      }
      if (this.ended) {
        const rest = this.buffer;
        this.buffer = '';
        return rest.length ? rest : null;
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = null;
    }
  }
}

/**
 * Parse a one-off default typed at the prompt: `now`, a number, `true`/`false`/`null`, a
 * quoted string ('text' or "text"), or JSON. Throws on anything else.
 */
export function parseDefault(text: string): DefaultValue {
  const trimmed = text.trim();
  if (trimmed === 'now' || trimmed === 'now()') return NOW;
  if (/^'.*'$/s.test(trimmed)) return trimmed.slice(1, -1).replace(/\\'/g, "'").replace(/\\\\/g, '\\');
  return JSON.parse(trimmed) as DefaultValue;
}

/** Asks on the command's stdout and reads answers from its stdin. */
export class InteractiveQuestioner implements Questioner {
  private readonly reader: LineReader;

  constructor(
    input: NodeJS.ReadableStream,
    private readonly output: { write(text: string): void },
  ) {
    this.reader = new LineReader(input);
  }

  private async yesNo(question: string): Promise<boolean> {
    for (;;) {
      this.output.write(`${question} [y/N] `);
      const answer = await this.reader.line();
      if (answer === null) return false;
      const value = answer.trim().toLowerCase();
      if (value === '' || value === 'n' || value === 'no') return false;
      if (value === 'y' || value === 'yes') return true;
      this.output.write('Please answer yes or no: ');
    }
  }

  private async oneOffDefault(field: string, model: string, question: string, allowLeave: boolean): Promise<DefaultValue | undefined> {
    this.output.write(`${question}\nPlease select a fix:\n 1) Provide a one-off default now (will be set on all existing rows with a null value for this column)\n`);
    if (allowLeave) this.output.write(' 2) Ignore for now: existing rows that contain NULL values will have to be handled manually\n 3) Quit and manually define a default value in the model\n');
    else this.output.write(' 2) Quit and manually define a default value in the model\n');
    for (;;) {
      this.output.write('Select an option: ');
      const answer = (await this.reader.line())?.trim();
      if (answer === undefined) throw new QuestionerAbort('No answer given; nothing written.');
      if (answer === '1') break;
      if (allowLeave && answer === '2') return undefined;
      if (answer === (allowLeave ? '3' : '2')) throw new QuestionerAbort(`Give ${model.toLowerCase()}.${field} a default in the model, then run makemigrations again.`);
      this.output.write('Please select a valid option.\n');
    }
    this.output.write("Please enter the default value as JSON, a 'quoted string' or now (the current time)\n");
    for (;;) {
      this.output.write('>>> ');
      const answer = await this.reader.line();
      if (answer === null) throw new QuestionerAbort('No default given; nothing written.');
      try {
        return parseDefault(answer);
      } catch {
        this.output.write(`Invalid input: ${answer.trim()} (write e.g. 0, 'text', true, now)\n`);
      }
    }
  }

  askRenameModel(_app: string, oldName: string, newName: string): Promise<boolean> {
    return this.yesNo(`Was the model ${oldName} renamed to ${newName}?`);
  }

  askRenameField(_app: string, model: string, oldName: string, newName: string, fieldType: string): Promise<boolean> {
    return this.yesNo(`Was ${model.toLowerCase()}.${oldName} renamed to ${model.toLowerCase()}.${newName} (a ${fieldType})?`);
  }

  async askNotNullAddition(_app: string, model: string, field: string): Promise<DefaultValue> {
    const value = await this.oneOffDefault(
      field,
      model,
      `It is impossible to add a non-nullable field '${field}' to ${model.toLowerCase()} without specifying a default. This is because the database needs something to populate existing rows.`,
      false,
    );
    return value as DefaultValue;
  }

  askNotNullAlteration(_app: string, model: string, field: string): Promise<DefaultValue | undefined> {
    return this.oneOffDefault(
      field,
      model,
      `It is impossible to change a nullable field '${field}' on ${model.toLowerCase()} to non-nullable without providing a default. This is because the database needs something to populate existing rows.`,
      true,
    );
  }

  askMerge(): Promise<boolean> {
    return this.yesNo('Do you want to merge these migration branches?');
  }
}
