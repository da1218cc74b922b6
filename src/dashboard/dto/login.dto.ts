import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { TEXT_PATTERN } from '../../common/http/input-limits';

// One rule per field, so a missing or mistyped field gets one message, not one per constraint.
/** Body of `POST /admin/api/session`. */
export class LoginDto {
  @ApiProperty({ example: 'admin@example.com', minLength: 1, maxLength: 320, pattern: TEXT_PATTERN, description: 'ADMIN_EMAIL (compared without regard to case).' })
  @Matches(/^[\s\S]{1,320}$/, { message: 'email is required: a string of 1 to 320 characters' })
  email: string;

  @ApiProperty({ example: 'correct horse battery staple', minLength: 1, maxLength: 1024, pattern: TEXT_PATTERN, description: 'ADMIN_PASSWORD.' })
  @Matches(/^[\s\S]{1,1024}$/, { message: 'password is required: a string of 1 to 1024 characters' })
  password: string;
}
