import { ApiProperty } from '@nestjs/swagger';

/** `{ "ok": true }`: the answer of deletions (DELETE /notifications, /secret/:id, /entities/...). */
export class OkAnswer {
  @ApiProperty({ type: Boolean, example: true, description: 'true: the operation succeeded (failures are error answers)' })
  ok!: true;
}
