import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** `{ "ok": true }`: the answer of deletions (DELETE /notifications, /secret/:id, /entities/...). */
@ApiSchema({ name: 'OkAnswer' }) // the schema name generated clients already use
export class OkView {
  @ApiProperty({ type: Boolean, example: true, description: 'true: the operation succeeded (failures are error answers)' })
  ok!: true;
}
