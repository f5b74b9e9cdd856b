import { ArrayMaxSize, IsArray } from 'class-validator';
import { ItemTenantFields } from '../common/item-tenant.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_DOCUMENTS_PER_REQUEST, type BoostField } from '@app/contracts';

const boost = () =>
  ApiPropertyOptional({ type: Number, nullable: true, description: 'Ranking mix boost value, valid in [0, 1]; null or absent: no data' });

/**
 * One catalogue document (documentation only: the intake validates each item itself and rejects a bad one with
 * its index and reason, instead of failing the request).
 */
export class CatalogueDocumentItem extends ItemTenantFields implements Partial<Record<BoostField, number | null>> {
  @ApiProperty({ maxLength: 500, example: 'sku-1234', description: '1-500 characters, no spaces' })
  id!: string;

  @ApiPropertyOptional({ example: 'de', description: 'letters and -, e.g. de or de-ch' })
  language?: string;

  @ApiPropertyOptional({ description: 'true removes the document; the latest write of an id wins' })
  deleted?: boolean;

  @boost() new?: number | null;
  @boost() sold?: number | null;
  @boost() basket?: number | null;
  @boost() view?: number | null;
  @boost() revenue?: number | null;
  @boost() rating?: number | null;
  @boost() profit_margin?: number | null;
}

export class PutDocumentsDto {
  @ApiProperty({ type: [CatalogueDocumentItem], maxItems: MAX_DOCUMENTS_PER_REQUEST })
  @IsArray()
  @ArrayMaxSize(MAX_DOCUMENTS_PER_REQUEST)
  documents!: unknown[];
}
