import { ApiProperty } from '@nestjs/swagger';

/** The signed-in operator, and the CSRF token the dashboard sends back on every state-changing call. */
export class SessionView {
  @ApiProperty({ example: 'admin@example.com' }) email: string;
  @ApiProperty({ example: 'Jc1yq3WkTqv0gYF7m2ZpS8bXr4NoA6Ud', description: 'Send as `X-CSRF-Token` on POST, PATCH and DELETE made with the session cookie.' })
  csrf_token: string;
  @ApiProperty({ format: 'date-time', description: 'Sign-in time.' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'When the session ends unless it is used before then.' }) idle_expires_at: string;
  @ApiProperty({ format: 'date-time', description: 'When the session ends however it is used.' }) expires_at: string;
}

export class LogoutView {
  @ApiProperty({ example: true }) signed_out: boolean;
}
