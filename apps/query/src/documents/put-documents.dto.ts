import { ArrayMaxSize, IsArray } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { MAX_DOCUMENTS_PER_REQUEST } from '@app/contracts';

/** The envelope only: documents are validated one by one, so one bad document is rejected with its index. */
export class PutDocumentsDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    maxItems: MAX_DOCUMENTS_PER_REQUEST,
    description: '{ id, language?, deleted?, new?, sold?, basket?, view?, revenue?, rating?, profit_margin? }',
  })
  @IsArray()
  @ArrayMaxSize(MAX_DOCUMENTS_PER_REQUEST)
  documents!: unknown[];
}
