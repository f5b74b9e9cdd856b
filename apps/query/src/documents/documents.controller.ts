import { Body, Controller, HttpCode, Put } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import { IntakeView } from '@app/intake';
import { PutDocumentsCommand } from './put-documents.command';
import { PutDocumentsDto } from './put-documents.dto';

@ApiTags('Documents')
@Controller('documents')
export class DocumentsController {
  constructor(private readonly commands: CommandBus) {}

  /** 202 `{ accepted, rejected: [{ index, reason }] }`; the latest write of an id wins, `deleted: true` removes it. */
  @Put()
  @HttpCode(202)
  @ApiOperation({
    operationId: 'putDocuments',
    summary: 'Store catalogue documents',
    description:
      "The ranking mix's boost values per document; the latest write of an id wins and `deleted: true` removes it. " +
      'Each document is validated on its own, as events are.',
  })
  @RequirePermission('persistence:write')
  @ApiAcceptedResponse({ type: IntakeView, description: 'Accepted and rejected items' })
  put(@Auth() auth: AuthContext, @Body() body: PutDocumentsDto): Promise<IntakeView> {
    return this.commands.execute(new PutDocumentsCommand(auth.customer, auth.instance, body.documents));
  }
}
