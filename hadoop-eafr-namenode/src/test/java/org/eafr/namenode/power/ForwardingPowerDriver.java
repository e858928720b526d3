package org.eafr.namenode.power;

/** A driver that passes every call to the driver it wraps; tests override the calls they record or break. */
public abstract class ForwardingPowerDriver implements PowerDriver {
  private final PowerDriver driver;

  protected ForwardingPowerDriver(PowerDriver driver) {
    this.driver = driver;
  }

  @Override
  public String name() {
    return driver.name();
  }

  @Override
  public String endpoint() {
    return driver.endpoint();
  }

  @Override
  public void powerOn() throws PowerException {
    driver.powerOn();
  }

  @Override
  public void gracefulOff() throws PowerException {
    driver.gracefulOff();
  }

  @Override
  public void forcedOff() throws PowerException {
    driver.forcedOff();
  }

  @Override
  public PowerState state() throws PowerException {
    return driver.state();
  }

  @Override
  public PowerReading powerReading() throws PowerException {
    return driver.powerReading();
  }
}
