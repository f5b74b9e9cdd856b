import { Injectable, type PipeTransform } from '@nestjs/common';
import { DomainError } from '@app/errors';

/** A term id of the list's form (term-id.ts): 32 lowercase hex characters, else a 400 naming `id`. */
@Injectable()
export class TermIdPipe implements PipeTransform<string, string> {
  transform(id: string): string {
    if (!/^[0-9a-f]{32}$/.test(id)) {
      throw new DomainError('invalid', 'id must be 32 lowercase hex characters, the id of a GET /search-terms entry');
    }
    return id;
  }
}
