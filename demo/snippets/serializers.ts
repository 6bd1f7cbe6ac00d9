/**
 * The tutorial's serializers: snippets (with the owner's username, read-only) and users (with
 * the ids of their snippets).
 */
import { fields, relations, serializers } from 'api_framework';
import { User } from 'api_framework/contrib/auth';
import { Snippet } from './models';

/** A snippet: `id, title, code, linenos, language, style, owner`. */
export class SnippetSerializer extends serializers.ModelSerializer<Snippet> {
  static fields = {
    owner: new fields.ReadOnlyField({ source: 'owner.username' }),
  };
  static Meta = serializers.meta({
    model: Snippet,
    fields: ['id', 'title', 'code', 'linenos', 'language', 'style', 'owner'],
  }, this.fields);
}

/** A user: `id, username, snippets` (the ids of the snippets the user owns). */
export class UserSerializer extends serializers.ModelSerializer<User> {
  static fields = {
    snippets: new relations.PrimaryKeyRelatedField({ many: true, queryset: Snippet.objects.all() }),
  };
  static Meta = serializers.meta({ model: User, fields: ['id', 'username', 'snippets'] }, this.fields);
}
