# SPDX-License-Identifier: MIT
"""Virtual Joy-Con (L) 057e:2006 and Joy-Con (R) 057e:2007 over Bluetooth, on uhid, for hid-nintendo.

A Joy-Con speaks the Switch Pro Controller's Bluetooth protocol (dekuNukem
Nintendo_Switch_Reverse_Engineering bluetooth_hid_notes.md, bluetooth_hid_subcommands_notes.md):
the same 0x01 subcommands answered by 0x21 replies, the same SPI flash layout for factory and user
IMU calibration (spi_flash_notes.md: 0x6020, 0x8026 magic + 0x8028) and the same 0x30 reports with
three IMU samples, 49 bytes over Bluetooth. What differs, and what hid-nintendo (Linux 6.1,
drivers/hid/hid-nintendo.c) reads of it:
  * the product id (USB_DEVICE_ID_NINTENDO_JOYCONL/R), on which it binds over Bluetooth only, and
    skips the USB 0x80 handshake (joycon_init tries it for the Pro Controller and the grip only);
  * device info data[2], the controller type 1 (L) or 2 (R) (enum joycon_ctlr_type), from which
    it takes the side: the pad's inputs ("Nintendo Switch Left/Right Joy-Con") and whether the IMU
    is the right's, mounted mirrored, whose Y and Z it negates (joycon_parse_imu_report) so both
    halves read in one frame: X toward the triggers, Y left, Z up;
  * a real Joy-Con's name over Bluetooth, "Joy-Con (L)" / "Joy-Con (R)".

`set_motion_physical` here speaks that common frame: the right model turns it into its own
mirrored counts (Y and Z negated) before the kernel negates them back.
"""

from models.switch_pro import SwitchProController, BT_REPORT_LEN


class JoyCon(SwitchProController):
    SIDE = None
    MIRRORED = False

    def __init__(self, mac, rate_hz=1000.0 / 15, imu_cal=None, user_imu_cal=None):
        super().__init__(bus='bluetooth', rate_hz=rate_hz, imu_cal=imu_cal, user_imu_cal=user_imu_cal,
                         mac=mac, name=f"Joy-Con ({self.SIDE})")
        assert self.report_len == BT_REPORT_LEN

    def counts_for(self, accel_g, gyro_dps):
        """Raw counts that make hid-nintendo report accel_g and gyro_dps in its common frame."""
        if self.MIRRORED:
            accel_g = (accel_g[0], -accel_g[1], -accel_g[2])
            gyro_dps = (gyro_dps[0], -gyro_dps[1], -gyro_dps[2])
        return super().counts_for(accel_g, gyro_dps)


class JoyConLeft(JoyCon):
    PRODUCT_ID = 0x2006
    CONTROLLER_TYPE = 0x01
    SIDE = "L"


class JoyConRight(JoyCon):
    PRODUCT_ID = 0x2007
    CONTROLLER_TYPE = 0x02
    SIDE = "R"
    MIRRORED = True
