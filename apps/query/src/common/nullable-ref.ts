import type { Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';

/**
 * A property (required unless told) that holds a `model` or null, documented as OpenAPI 3.0.3 reads it:
 * `oneOf: [{ $ref: model }, { type: object, nullable: true, enum: [null] }]`. Nest's own form for
 * `@ApiProperty({ type: () => model, nullable: true })` is `nullable` beside `allOf: [{ $ref }]`, which strict
 * validators (Prism) read as "an object matching the model", rejecting null (docs/decisions/0030-a-strict-contract.md).
 * The null alternative is typed, so that `nullable` applies, with an enum of null alone, so that nothing else matches
 * it. The model is registered with the class, so the reference always resolves.
 */
export function ApiNullableRefProperty(model: Type<unknown>, description: string, required = true): PropertyDecorator {
  return (target, key) => {
    ApiExtraModels(model)(target.constructor);
    ApiProperty({
      description,
      required,
      oneOf: [{ $ref: getSchemaPath(model) }, { type: 'object' as const, nullable: true, enum: [null] }],
    })(target, key);
  };
}
