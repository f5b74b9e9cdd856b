import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { NOTIFICATION_KINDS, type NotificationKind } from '@app/notifications';
import { PaginationDto } from '../common/pagination.dto';

/** A page of notifications, all or of one kind (the dashboard's recent alerts: `type=alert`). */
export class NotificationsPageDto extends PaginationDto {
  @ApiPropertyOptional({ enum: NOTIFICATION_KINDS, enumName: 'NotificationKind', description: 'Only notifications of this kind' })
  @IsOptional()
  @IsIn(NOTIFICATION_KINDS, { message: `type must be one of ${NOTIFICATION_KINDS.join(', ')}` })
  type?: NotificationKind;
}
