/**
 * A plain serializer with the common field types, for the validation endpoint.
 */
import { fields, serializers } from 'api_framework';

/** The nested part of a feature payload. */
export class NestedSerializer extends serializers.Serializer {
  static fields = {
    flag: new fields.BooleanField(),
    note: new fields.CharField(),
  };
}

/** One field of each common type, with the usual limits. */
export class FeatureSerializer extends serializers.Serializer {
  static fields = {
    name: new fields.CharField({ maxLength: 5 }),
    count: new fields.IntegerField({ minValue: 1 }),
    price: new fields.DecimalField({ maxDigits: 5, decimalPlaces: 2 }),
    email: new fields.EmailField(),
    choice: new fields.ChoiceField({ choices: ['a', 'b'] }),
    tags: new fields.ListField({ child: new fields.CharField({ maxLength: 3 }) }),
    when: new fields.DateTimeField({ required: false }),
    nested: NestedSerializer.asField({ required: false }),
  };
}
