/**
 * `manage.ts changepassword [username]`: set a user's password, asking for it twice; it must
 * pass `AUTH_PASSWORD_VALIDATORS` (three tries, as in the host framework).
 */
import os from 'node:os';
import { BaseCommand, CommandError, type CommandOptions, type CommandParser } from '../../../lib/core/management';
import { User } from '../models';
import { Prompter } from '../prompt';
import { PasswordValidationError, validatePassword } from '../passwordValidation';

const MAX_TRIES = 3;

/** Change a user's password interactively. */
export default class Command extends BaseCommand {
  static override help = "Change a user's password for django.contrib.auth.";

  override addArguments(parser: CommandParser): void {
    parser.addArgument({
      name: 'username',
      positional: true,
      help: "Username to change password for; by default, it's the current username.",
    });
  }

  private async getPass(prompter: Prompter, message = 'Password: '): Promise<string> {
    const value = await prompter.askSecret(message);
    if (!value) throw new CommandError('aborted');
    return value;
  }

  override async handle(options: CommandOptions): Promise<void> {
    const username = typeof options.username === 'string' && options.username ? options.username : os.userInfo().username;
    const user = await User.objects.filter({ username }).first();
    if (!user) throw new CommandError(`user '${username}' does not exist`);
    this.stdout.write(`Changing password for user '${user}'\n`);
    const prompter = new Prompter(this.stdin, this.stdout);
    let password: string | null = null;
    let count = 0;
    try {
      while (password === null && count < MAX_TRIES) {
        const first = await this.getPass(prompter);
        const second = await this.getPass(prompter, 'Password (again): ');
        if (first !== second) {
          this.stdout.write('Passwords do not match. Please try again.\n');
          count++;
          continue;
        }
        try {
          validatePassword(second, user);
        } catch (error) {
          if (!(error instanceof PasswordValidationError)) throw error;
          this.stderr.write(`${error.messages.join('\n')}\n`);
          count++;
          continue;
        }
        password = first;
      }
    } finally {
      prompter.close();
    }
    if (password === null) {
      throw new CommandError(`Aborting password change for user '${user}' after ${count} attempts`);
    }
    await user.setPassword(password);
    await user.save();
    this.stdout.write(`Password changed successfully for user '${user}'\n`);
  }
}
