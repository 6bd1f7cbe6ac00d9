/**
 * `manage.ts createsuperuser`: create a staff superuser, prompting for the username, email and
 * password (twice), or with `--noinput` from `--username`, `--email` and the password in
 * `SUPERUSER_PASSWORD` / `DJANGO_SUPERUSER_PASSWORD`. Interactive passwords go through
 * `AUTH_PASSWORD_VALIDATORS`; their messages are printed and the command offers to bypass them
 * (`Bypass password validation and create user anyway? [y/N]`), as the host framework does.
 */
import os from 'node:os';
import { BaseCommand, CommandError, type CommandOptions, type CommandParser } from '../../../lib/core/management';
import { User } from '../models';
import { Prompter } from '../prompt';
import { ValidationError, validateEmail } from '../validators';
import { PasswordValidationError, validatePassword } from '../passwordValidation';

const USERNAME_MAX_LENGTH = 150;
const EMAIL_MAX_LENGTH = 254;

function maxLengthMessage(value: string, max: number): string {
  return `Ensure this value has at most ${max} characters (it has ${value.length}).`;
}

/** Create a superuser account. */
export default class Command extends BaseCommand {
  static override help = 'Used to create a superuser.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'username', type: 'string', help: 'Specifies the login for the superuser.' });
    parser.addArgument({ name: 'email', type: 'string', help: 'Specifies the email for the superuser.' });
    parser.addArgument({
      name: 'noinput',
      type: 'boolean',
      help:
        'Tells the command to NOT prompt the user for input of any kind. You must use --username with --noinput, ' +
        'along with an option for any other required field. Superusers created with --noinput will not be able to ' +
        'log in until they\'re given a valid password.',
    });
    parser.addArgument({ name: 'no-input', type: 'boolean', help: 'Same as --noinput.' });
  }

  /** The username field's checks: unique, not blank, valid characters, 150 at most. */
  protected async validateUsername(username: string): Promise<string | null> {
    if (await User.objects.filter({ username }).exists()) return 'Error: That username is already taken.';
    if (!username) return 'Username cannot be blank.';
    return this.cleanUsername(username);
  }

  private cleanUsername(username: string): string | null {
    const messages: string[] = [];
    if (username.length > USERNAME_MAX_LENGTH) messages.push(maxLengthMessage(username, USERNAME_MAX_LENGTH));
    try {
      User.usernameValidator.validate(username);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      messages.push(error.message);
    }
    return messages.length ? messages.join('; ') : null;
  }

  private cleanEmail(email: string): string | null {
    if (email === '') return null;
    const messages: string[] = [];
    try {
      validateEmail(email);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      messages.push(error.message);
    }
    if (email.length > EMAIL_MAX_LENGTH) messages.push(maxLengthMessage(email, EMAIL_MAX_LENGTH));
    return messages.length ? messages.join('; ') : null;
  }

  /** The login name of the person running the command, when it would be a valid new username. */
  protected async defaultUsername(): Promise<string> {
    let name: string;
    try {
      name = os.userInfo().username.normalize('NFKC').toLowerCase();
    } catch {
      return '';
    }
    if (!name || this.cleanUsername(name) !== null) return '';
    if (await User.objects.filter({ username: name }).exists()) return '';
    return name;
  }

  override async handle(options: CommandOptions): Promise<void> {
    const interactive = !(options.noinput || options.noInput);
    let username = typeof options.username === 'string' ? options.username : null;
    let email = typeof options.email === 'string' ? options.email : null;
    let password: string | null = process.env.SUPERUSER_PASSWORD ?? process.env.DJANGO_SUPERUSER_PASSWORD ?? null;

    if (!interactive) {
      username ??= process.env.DJANGO_SUPERUSER_USERNAME ?? null;
      if (username === null) throw new CommandError('You must use --username with --noinput.');
      const error = await this.validateUsername(username);
      if (error) throw new CommandError(error);
      email ??= process.env.DJANGO_SUPERUSER_EMAIL ?? null;
      if (email === null) throw new CommandError('You must use --email with --noinput.');
      const emailError = this.cleanEmail(email);
      if (emailError) throw new CommandError(emailError);
    } else {
      const prompter = new Prompter(this.stdin, this.stdout);
      try {
        password = null;
        if (username !== null) {
          const error = await this.validateUsername(username);
          if (error) {
            this.stderr.write(`${error}\n`);
            username = null;
          }
        }
        const fallback = username === null ? await this.defaultUsername() : '';
        while (username === null) {
          const raw = await prompter.ask(`Username${fallback ? ` (leave blank to use '${fallback}')` : ''}: `);
          const value = raw === '' && fallback ? fallback : raw;
          if (value === '') {
            this.stderr.write('Error: This field cannot be blank.\n');
            continue;
          }
          const error = await this.validateUsername(value);
          if (error) {
            this.stderr.write(`${error.startsWith('Error: ') ? error : `Error: ${error}`}\n`);
            continue;
          }
          username = value;
        }
        while (email === null) {
          const value = await prompter.ask('Email address: ');
          const error = this.cleanEmail(value);
          if (error) {
            this.stderr.write(`Error: ${error}\n`);
            continue;
          }
          email = value;
        }
        while (password === null) {
          const first = await prompter.askSecret('Password: ');
          const second = await prompter.askSecret('Password (again): ');
          if (first !== second) {
            this.stderr.write("Error: Your passwords didn't match.\n");
            continue;
          }
          if (first.trim() === '') {
            this.stderr.write("Error: Blank passwords aren't allowed.\n");
            continue;
          }
          // AUTH_PASSWORD_VALIDATORS, against the user about to be created (not saved).
          try {
            validatePassword(second, User.build({ username, email }));
          } catch (error) {
            if (!(error instanceof PasswordValidationError)) throw error;
            this.stderr.write(`${error.messages.join('\n')}\n`);
            const answer = await prompter.ask('Bypass password validation and create user anyway? [y/N]: ');
            if (answer.toLowerCase() !== 'y') continue;
          }
          password = first;
        }
      } finally {
        prompter.close();
      }
    }
    await User.objects.createSuperuser(username, email, password);
    if (Number(options.verbosity ?? 1) >= 1) this.stdout.write('Superuser created successfully.\n');
  }
}
