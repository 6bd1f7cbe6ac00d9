/**
 * `manage.ts drf_create_token <username> [-r|--reset]`: print the user's token, creating it
 * when missing; `--reset` replaces an existing token with a new key.
 */
import { BaseCommand, CommandError, type CommandOptions, type CommandParser } from '../../../lib/core/management';
import { Token } from '../models';

/** Create (or with `--reset`, regenerate) the API token of a user. */
export default class Command extends BaseCommand {
  static override help = 'Create DRF Token for a given user';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'username', positional: true, type: 'string', required: true });
    parser.addArgument({
      name: 'reset',
      short: 'r',
      type: 'boolean',
      default: false,
      help: 'Reset existing User token and create a new one',
    });
  }

  /** Return the user's token, first deleting the old one when `resetToken` is set. */
  async createUserToken(username: string, resetToken: boolean): Promise<Token> {
    const user = await Token.findUserByUsername(username);
    if (!user) throw new CommandError(`Cannot create the Token: user ${username} does not exist`);
    if (resetToken) await Token.objects.filter({ user_id: user.pk }).delete();
    const [token] = await Token.getOrCreateForUser(user);
    return token;
  }

  override async handle(options: CommandOptions): Promise<void> {
    const username = String(options.username);
    const token = await this.createUserToken(username, options.reset === true);
    this.stdout.write(`Generated token ${token.key} for user ${username}\n`);
  }
}
