import { Injectable, type PipeTransform } from '@nestjs/common';
import { DomainError } from '@app/errors';
import { ENTITY_TYPES, isEntityType, type EntityType } from '@app/contracts';

@Injectable()
export class EntityTypePipe implements PipeTransform<string, EntityType> {
  transform(value: string): EntityType {
    if (!isEntityType(value)) {
      throw new DomainError('invalid', `Unknown entity type ${JSON.stringify(value)}; one of ${ENTITY_TYPES.join(', ')}`);
    }
    return value;
  }
}
