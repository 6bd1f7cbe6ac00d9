/** URL conf of the system check specs: views whose ModelSerializers lack Meta or Meta.model. */
import { path } from '../../../lib/core/urls';
import { GenericAPIView } from '../../../lib/generics';
import { ModelSerializer } from '../../../lib/serializers';
import { User } from '../../../contrib/auth/models';

/** A ModelSerializer that forgot its Meta. */
export class NoMetaSerializer extends ModelSerializer {}

/** A ModelSerializer whose Meta names no model. */
export class NoModelSerializer extends ModelSerializer {
  static Meta = { fields: ['id'] };
}

/** A well-formed ModelSerializer. */
export class UserSerializer extends ModelSerializer {
  static Meta = { model: User, fields: ['id', 'username'] };
}

class NoMetaView extends GenericAPIView {
  override serializerClass = NoMetaSerializer;
}

class NoModelView extends GenericAPIView {
  override serializerClass = NoModelSerializer;
}

class FineView extends GenericAPIView {
  override serializerClass = UserSerializer;
}

export const urlpatterns = [
  path('no-meta/', NoMetaView.asView()),
  path('no-model/', NoModelView.asView()),
  path('no-model-again/', NoModelView.asView()),
  path('fine/', FineView.asView()),
];
